/**
 * The answer to the generator's test-case step from a pack's reviewed test cases, for the scripts that record a
 * reviewed pack's build: one case per example the request lists, found by policy, kind and example text.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestCase } from '../src/pack/test-case.ts';

/** The reviewed cases of `policy` for the examples a `generate.test_cases` request lists, in its answer's shape. */
export async function reviewedCaseAnswers(request: string, packDir: string, tool: string, policy: string) {
  const block = /The examples, by index:\n```json\n([\s\S]*?)\n```/.exec(request)?.[1] ?? '[]';
  const examples = JSON.parse(block) as { index: number; kind: TestCase['kind']; example: string }[];
  const cases = JSON.parse(await readFile(join(packDir, 'tests', `${tool}.cases.json`), 'utf8')) as TestCase[];
  return {
    cases: examples.map(({ index, kind, example }) => {
      const found = cases.find((item) => item.policy === policy && item.kind === kind && item.example === example);
      if (found === undefined) throw new Error(`no reviewed test case for ${policy} (${kind}): ${example}`);
      return { index, arguments: found.arguments, conversation: found.conversation, lookups: found.lookups };
    }),
  };
}
