import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { openAIChatMessageSchema } from '../model/openai-chat.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';

/** Schema of a test case: one example of one policy, with the conversation and lookup answers mocked. */
export const testCaseSchema = z.object({
  tool: z.string().min(1),
  policy: z.string().min(1),
  kind: z.enum(['compliance', 'violation']),
  /** The example of the spec this case tests. */
  example: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** The conversation before the call, as OpenAI chat messages. */
  conversation: z.array(openAIChatMessageSchema).default([]),
  /** Answers of the lookups the check may make; a lookup with other arguments fails. */
  lookups: z
    .array(
      z.object({
        tool: z.string(),
        arguments: z.record(z.string(), z.unknown()),
        result: z.unknown().optional(),
        error: z.string().optional(),
      }),
    )
    .default([]),
  /** The policy's clock for this case (ISO 8601); default: the pack's clock. */
  now: z.string().optional(),
});

/**
 * A test case of a policy: the call's arguments, the conversation, the lookups' answers, and whether the call should
 * comply or break the policy. Generated from the spec's examples; data, never code.
 *
 * @example
 * ```ts
 * const testCase: TestCase = { tool: 'cancel_reservation', policy: 'cancel.not_flown', kind: 'violation', example: '…',
 *   arguments: { reservation_id: 'ZFA04Y' }, conversation: [], lookups: [] };
 * ```
 */
export type TestCase = z.output<typeof testCaseSchema>;

/**
 * Reads a file of test cases (`tests/<tool>.cases.json` in a pack); a malformed case throws an `InputError` naming
 * the file and the JSON path.
 *
 * @example
 * ```ts
 * const cases = await readTestCases('packs/tau-airline/tests/cancel_reservation.cases.json');
 * ```
 */
export async function readTestCases(file: string): Promise<TestCase[]> {
  return parseInput(z.array(testCaseSchema), parseJsonText(await readFile(file, 'utf8'), file), file);
}

/**
 * The test cases a pack ships (`tests/*.cases.json`), file by file in name order; none when it has no tests folder.
 *
 * @example
 * ```ts
 * for (const { name, cases } of await packTestFiles('packs/tau-airline')) console.log(name, cases.length);
 * ```
 */
export async function packTestFiles(dir: string): Promise<{ name: string; cases: TestCase[] }[]> {
  const testsDir = join(dir, 'tests');
  let names: string[];
  try {
    names = (await readdir(testsDir)).filter((name) => name.endsWith('.cases.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(names.map(async (name) => ({ name, cases: await readTestCases(join(testsDir, name)) })));
}
