/**
 * Metamorphic suite of the airline pack: every write call of the 200 recorded GPT-4o runs (in the state the run had
 * reached) and every reviewed test case, varied; no variant may be decided less strictly than its reference.
 */

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { fromOpenAIChat, GuardRuntime, loadPack, type OpenAIChatMessage, type ToolInvoker } from 'agentguard';
import { environmentFor } from '../../src/replay/environment.ts';
import { readTrajectories } from '../../src/replay/trajectories.ts';
import { type Decide, varyInput } from './input-variation.ts';
import { size } from './sampling.ts';
import { decided, reportSurvey, Survey } from './survey.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** A test case of a pack, as its `tests/*.cases.json` holds it. */
interface TestCase {
  tool: string;
  policy: string;
  example: string;
  arguments: Record<string, unknown>;
  conversation?: OpenAIChatMessage[];
  lookups?: { tool: string; arguments: Record<string, unknown>; result?: unknown; error?: string }[];
  now?: string;
}

/** Answers a test case's lookups from its recorded answers; any other lookup fails, as in the pack's own tests. */
function recordedLookups(testCase: TestCase): ToolInvoker {
  return {
    async invoke(tool, args) {
      const found = testCase.lookups?.find(
        (lookup) => lookup.tool === tool && isDeepStrictEqual(lookup.arguments, args),
      );
      if (found === undefined) throw new Error(`no answer for ${tool}(${JSON.stringify(args)}) in the test case`);
      if (found.error !== undefined) throw new Error(found.error);
      return found.result;
    },
  };
}

describe(`metamorphic: tau-airline (${size} variants of each kind per input)`, async () => {
  const packDir = root('packs/tau-airline');
  const pack = await loadPack(packDir);
  const runtime = new GuardRuntime([pack], { timeoutMs: 1_000 });
  const decide: Decide = async (call, context, policy) => decided(await runtime.check(call, context), policy);
  const survey = new Survey('tau-airline');
  const writes = new Set([...pack.tools.values()].filter((tool) => !tool.spec.readOnly).map((tool) => tool.spec.name));

  const fresh = await environmentFor('tau-airline');
  if (fresh === undefined) throw new Error('no environment for `tau-airline`');
  for (const run of await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json'))) {
    const environment = fresh();
    for (const { call, messageIndex } of run.conversation.toolCalls()) {
      if (writes.has(call.name)) {
        await varyInput(
          {
            name: `run ${run.id} message ${messageIndex} ${call.name}`,
            call,
            conversation: run.conversation.before(messageIndex),
            invoker: environment.invoker,
            now: environment.now,
          },
          decide,
          survey,
        );
      }
      environment.run(call.name, call.arguments);
    }
  }

  const testsDir = join(packDir, 'tests');
  for (const file of (await readdir(testsDir)).filter((name) => name.endsWith('.cases.json')).sort()) {
    const cases = JSON.parse(await readFile(join(testsDir, file), 'utf8')) as TestCase[];
    for (const [index, testCase] of cases.entries()) {
      const now = testCase.now ?? pack.manifest.clock;
      await varyInput(
        {
          name: `case ${file}[${index}] ${testCase.policy}`,
          call: { id: 'case', name: testCase.tool, arguments: testCase.arguments },
          conversation: fromOpenAIChat(testCase.conversation ?? [], `${file}[${index}]`),
          invoker: recordedLookups(testCase),
          now: now === undefined ? new Date() : new Date(now),
          policy: testCase.policy,
        },
        decide,
        survey,
      );
    }
  }
  await runtime.close();
  reportSurvey(survey);
});
