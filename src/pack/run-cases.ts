import { isDeepStrictEqual } from 'node:util';
import type { GuardContext, ToolInvoker } from '../model/guard-context.ts';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import type { ToolCall } from '../model/tool-call.ts';
import { executorFor, type GuardExecutor } from '../runtime/executor.ts';
import type { PolicyOutcome } from '../runtime/policy-check.ts';
import type { GuardPack } from './load-pack.ts';
import type { TestCase } from './test-case.ts';

/** The result of one test case. */
export interface CaseResult {
  testCase: TestCase;
  /** `pass`; `fail` when the check decided the wrong way; `error` when it could not decide (a fault). */
  outcome: 'pass' | 'fail' | 'error';
  detail: string;
}

/** Judges a check's outcome on a test case: pass, fail (decided the wrong way) or error (could not decide). */
export function judge(testCase: TestCase, outcome: PolicyOutcome | undefined): Omit<CaseResult, 'testCase'> {
  if (outcome === undefined || 'fault' in outcome)
    return { outcome: 'error', detail: `the check ${outcome?.message ?? 'gave no outcome'}` };
  if ((outcome.finding === undefined) === (testCase.kind === 'compliance')) {
    return { outcome: 'pass', detail: outcome.finding?.message ?? 'complies' };
  }
  return {
    outcome: 'fail',
    detail:
      outcome.finding === undefined
        ? 'expected a violation, the check found none'
        : `expected compliance, the check found: ${outcome.finding.message}`,
  };
}

/**
 * A lookup invoker answering from a case's recorded lookups: with promises, or also at once (`invokeNow`) when
 * `atOnce` is set, as an in-process backend answers.
 */
export function caseInvoker(testCase: TestCase, { atOnce = false } = {}): ToolInvoker {
  const answer = (tool: string, args: Record<string, unknown>) => {
    const found = testCase.lookups.find((lookup) => lookup.tool === tool && isDeepStrictEqual(lookup.arguments, args));
    if (found === undefined) throw new Error(`no answer for ${tool}(${JSON.stringify(args)}) in the test case`);
    if (found.error !== undefined) throw new Error(found.error);
    return found.result;
  };
  const invoker: ToolInvoker = { invoke: async (tool, args) => answer(tool, args) };
  if (atOnce) invoker.invokeNow = answer;
  return invoker;
}

/**
 * A test case as a call to decide, in its context: the case's conversation, its clock (else the pack's, else now) and
 * its recorded lookups (see `caseInvoker`).
 *
 * @example
 * ```ts
 * const { call, context } = caseCall(pack, testCase);
 * ```
 */
export function caseCall(
  pack: GuardPack,
  testCase: TestCase,
  { atOnce = false } = {},
): { call: ToolCall; context: GuardContext } {
  const now = testCase.now ?? pack.manifest.clock;
  return {
    call: { id: 'case', name: testCase.tool, arguments: testCase.arguments },
    context: {
      conversation: fromOpenAIChat(testCase.conversation, `case of ${testCase.policy}`),
      invoker: caseInvoker(testCase, { atOnce }),
      now: now === undefined ? new Date() : new Date(now),
    },
  };
}

/**
 * Runs test cases against a pack, each policy in isolation, where the pack's code runs (in-process when reviewed,
 * else in a worker).
 *
 * @example
 * ```ts
 * const results = await runCases(pack, cases);
 * ```
 */
export async function runCases(pack: GuardPack, cases: readonly TestCase[], timeoutMs = 1000): Promise<CaseResult[]> {
  const executor: GuardExecutor = executorFor(pack);
  const results: CaseResult[] = [];
  try {
    for (const testCase of cases) {
      const tool = pack.tools.get(testCase.tool);
      if (tool?.policies.some((policy) => policy.spec.id === testCase.policy) !== true) {
        results.push({
          testCase,
          outcome: 'error',
          detail: `the pack has no policy \`${testCase.policy}\` on \`${testCase.tool}\``,
        });
        continue;
      }
      const { call, context } = caseCall(pack, testCase);
      const [outcome] = await executor.evaluate(tool, [testCase.policy], call, context, timeoutMs);
      results.push({ testCase, ...judge(testCase, outcome) });
    }
  } finally {
    await executor.close();
  }
  return results;
}
