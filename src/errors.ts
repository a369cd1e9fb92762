/** Stable codes of the errors agentguard raises. */
export type ErrorCode =
  | 'invalid_input'
  | 'invalid_pack'
  | 'guard_denied'
  | 'budget_exceeded'
  | 'model_error'
  | 'step_failed'
  | 'upstream_error'
  | 'missing_package';

const marker = Symbol.for('agentguard.error');

/**
 * Base class of every error agentguard raises; carries a stable `code`.
 *
 * @example
 * ```ts
 * try { await loadPack('packs/missing'); } catch (error) { if (AgentGuardError.isInstance(error)) console.log(error.code); }
 * ```
 */
export class AgentGuardError extends Error {
  readonly code: ErrorCode;
  readonly [marker] = true;

  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AgentGuardError';
    this.code = code;
  }

  /** True for any agentguard error, also across copies of the package. */
  static isInstance(value: unknown): value is AgentGuardError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** One problem found in an input: where it is and what was expected there. */
export interface InputIssue {
  /** JSON path (`$.tools[2].name`) or `line N`. */
  location: string;
  message: string;
}

/**
 * Bad input: a file, a call or a record that does not have the expected shape. Lists every issue found, each with
 * its place.
 *
 * @example
 * ```ts
 * throw new InputError('call.json', [{ location: '$.name', message: 'expected a string' }]);
 * ```
 */
export class InputError extends AgentGuardError {
  readonly source: string;
  readonly issues: readonly InputIssue[];

  constructor(source: string, issues: readonly InputIssue[], code: ErrorCode = 'invalid_input') {
    const listed = issues.map((issue) => `${issue.location}: ${issue.message}`).join('; ');
    super(code, `invalid \`${source}\`: ${listed}`);
    this.name = 'InputError';
    this.source = source;
    this.issues = issues;
  }
}
