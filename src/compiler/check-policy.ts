import { fromOpenAIChat } from '../model/openai-chat.ts';
import { judge } from '../pack/run-cases.ts';
import type { TestCase } from '../pack/test-case.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { GuardTypeChecker } from './type-checker.ts';

/** What checking a policy's code found, and how long each part took. */
export interface PolicyCodeCheck {
  typeErrors: string[];
  /** One line per failing test case: which example and what went wrong. */
  failures: string[];
  passed: number;
  typeCheckMs: number;
  testsMs: number;
}

/**
 * Checks a policy's generated code: type-checks it with the pack's other files, then runs its test cases in the
 * sandbox (only when it type-checks).
 *
 * @example
 * ```ts
 * const result = await checkPolicyCode({ typeChecker, sandbox, files, file, code, policy: 'cancel.not_flown', cases });
 * ```
 */
export async function checkPolicyCode(options: {
  typeChecker: GuardTypeChecker;
  sandbox: Sandbox;
  /** The pack's other files by path: types and helpers. */
  files: ReadonlyMap<string, string>;
  file: string;
  code: string;
  policy: string;
  cases: readonly TestCase[];
  clock?: string;
}): Promise<PolicyCodeCheck> {
  const files = new Map([...options.files, [options.file, options.code]]);
  let started = performance.now();
  const typeErrors = options.typeChecker.check(files, [options.file]);
  const typeCheckMs = performance.now() - started;
  if (typeErrors.length > 0) return { typeErrors, failures: [], passed: 0, typeCheckMs, testsMs: 0 };
  started = performance.now();
  const outcomes = await options.sandbox.runChecks({
    policy: options.policy,
    files,
    entry: options.file,
    timeoutMs: 2000,
    cases: options.cases.map((testCase) => ({
      call: { id: 'case', name: testCase.tool, arguments: testCase.arguments },
      messages: fromOpenAIChat(testCase.conversation, `case of ${options.policy}`).messages,
      lookups: testCase.lookups,
      now: Date.parse(testCase.now ?? options.clock ?? new Date().toISOString()),
    })),
  });
  const failures: string[] = [];
  options.cases.forEach((testCase, index) => {
    const result = judge(testCase, outcomes[index]);
    if (result.outcome !== 'pass') failures.push(`${testCase.kind} example "${testCase.example}": ${result.detail}`);
  });
  return {
    typeErrors,
    failures,
    passed: options.cases.length - failures.length,
    typeCheckMs,
    testsMs: performance.now() - started,
  };
}
