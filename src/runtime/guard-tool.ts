import { AgentGuardError } from '../errors.ts';
import type { GuardContext } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Verdict } from '../model/verdict.ts';
import { feedbackFor } from './feedback.ts';
import type { GuardRuntime } from './guard-runtime.ts';

/** Raised by a guarded tool when its call is not allowed and the wrapper is set to throw. */
export class GuardDeniedError extends AgentGuardError {
  readonly verdict: Verdict;

  constructor(verdict: Verdict) {
    super('guard_denied', feedbackFor(verdict));
    this.name = 'GuardDeniedError';
    this.verdict = verdict;
  }
}

/** How a guarded tool gets its context and answers a denied call. */
export interface GuardToolOptions {
  /** The context of the current call: the conversation so far, lookups and clock. */
  context: () => GuardContext | Promise<GuardContext>;
  /** `feedback` (default) returns the feedback message as the tool's result; `throw` raises `GuardDeniedError`. */
  onDeny?: 'feedback' | 'throw';
}

let callCounter = 0;

/**
 * Wraps a plain async tool function so that the runtime decides every call before it runs.
 *
 * @example
 * ```ts
 * const cancel = guardTool(runtime, 'cancel_reservation', cancelReservation, { context: () => currentContext });
 * const result = await cancel({ reservation_id: 'ZFA04Y' }); // the tool's result, or the feedback message
 * ```
 */
export function guardTool<Args extends Record<string, unknown>, Result>(
  runtime: GuardRuntime,
  name: string,
  tool: (args: Args) => Promise<Result>,
  options: GuardToolOptions,
): (args: Args) => Promise<Result | string> {
  return async (args) => {
    const call: ToolCall = { id: `guarded_${++callCounter}`, name, arguments: args };
    const verdict = await runtime.check(call, await options.context());
    return settleCall(verdict, () => tool(args), options);
  };
}

/**
 * Acts on a verdict for a call about to run: runs it when allowed, or when the verdict asks and a person approved it;
 * otherwise returns the feedback for the agent (`onDeny: 'feedback'`, the default) or throws `GuardDeniedError`.
 *
 * @example
 * ```ts
 * const result = await settleCall(verdict, () => cancelReservation(args), { approved: false });
 * ```
 */
export async function settleCall<Result>(
  verdict: Verdict,
  run: () => Promise<Result>,
  options: { onDeny?: 'feedback' | 'throw'; approved?: boolean } = {},
): Promise<Result | string> {
  if (verdict.decision === 'allow' || (verdict.decision === 'ask' && options.approved === true)) return run();
  if (options.onDeny === 'throw') throw new GuardDeniedError(verdict);
  return feedbackFor(verdict);
}
