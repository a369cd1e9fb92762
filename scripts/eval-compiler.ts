/**
 * Measures the policy compiler on the airline domain end to end: `npm run eval:compiler -- --model <provider:model>`
 * maps tau-bench v1's `wiki.md` (the wording of ToolGuard's gold spec) onto the airline tools, scores the mapping
 * against that gold spec, generates a guard pack from the mapping with no reviewed input, runs the pack's own tests,
 * and replays the 200 recorded GPT-4o runs through it and through the reviewed pack, printing where they agree.
 * `--record <file>` keeps every model answer (and resumes the file when it exists: its answers are given again to the
 * same requests); `--replay <file>` answers from such a recording, so a run's figures can be reproduced offline.
 * `--draft-domain` keeps the domain description as drafted from the lookups' result schemas, without the compiler's
 * domain step: how recordings made before that step replay.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadAirlineData } from '../src/domains/tau-airline/database.ts';
import { evaluateCompiler, formatCompilerEvaluation } from '../src/eval/compiler-evaluation.ts';
import { writeAtomically } from '../src/files.ts';
import { Budget, formatSpending } from '../src/llm/budget.ts';
import { RecordingModel, ReplayModel, readCassette } from '../src/llm/cassette.ts';
import type { LanguageModel } from '../src/llm/language-model.ts';
import { createLanguageModel } from '../src/llm/providers.ts';
import { readSpecDirectory } from '../src/pack/spec-directory.ts';
import { toolSpecSchema } from '../src/pack/tool-spec.ts';
import { type EnvironmentFactory, environmentFor } from '../src/replay/environment.ts';
import { readTrajectories } from '../src/replay/trajectories.ts';
import { withSampleResults } from '../src/tools/result-schema.ts';
import { lookupSamples } from './lookup-samples.ts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The airline's clock and the zone of its zone-less timestamps, as its policy states them. */
export const airlineClock = '2024-05-15T15:00:00-05:00';

/**
 * Sample results of the lookups guards use, from one real read-only call each at build time against the airline's
 * own tools (a few users, reservations and flights on dates before, at and after the policy's clock): the airline's
 * tool specs carry no result schema, so one is learned from these (`withSampleResults`).
 */
async function airlineSamples(environment: EnvironmentFactory): Promise<Record<string, unknown[]>> {
  const data = await loadAirlineData();
  return lookupSamples(environment().invoker, {
    get_user_details: Object.keys(data.users)
      .slice(0, 5)
      .map((user_id) => ({ user_id })),
    get_reservation_details: Object.keys(data.reservations)
      .slice(0, 5)
      .map((reservation_id) => ({ reservation_id })),
    get_flight_on_date_details: Object.keys(data.flights)
      .slice(0, 5)
      .flatMap((flight_number) => ['2024-05-10', '2024-05-15', '2024-05-20'].map((date) => ({ flight_number, date }))),
  });
}

/** Runs the evaluation with the command line's options (or with `answering`, a model given directly); returns the report. */
export async function runCompilerEvaluation(argv: readonly string[], answering?: LanguageModel): Promise<string> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      model: { type: 'string' },
      record: { type: 'string' },
      replay: { type: 'string' },
      out: { type: 'string' },
      map: { type: 'string' },
      generate: { type: 'string' },
      runs: { type: 'string' },
      json: { type: 'string' },
      timeout: { type: 'string', default: '120' },
      concurrency: { type: 'string', default: '1' },
      'draft-domain': { type: 'boolean', default: false },
      'max-calls': { type: 'string', default: '1000' },
    },
  });
  let model: LanguageModel;
  if (answering !== undefined) model = answering;
  else if (values.replay !== undefined) model = new ReplayModel(await readCassette(values.replay));
  else if (values.model !== undefined) model = createLanguageModel(values.model);
  else
    throw new Error(
      'usage: npm run eval:compiler -- --model <provider:model> | --replay <recording> [--record <file>]',
    );
  const recording = values.record === undefined ? undefined : await RecordingModel.resuming(model, values.record);
  const budget = new Budget({ maxCalls: Number(values['max-calls']), maxTokens: Number.MAX_SAFE_INTEGER });
  const gold = await readSpecDirectory(root('data/toolguard-airline-spec'));
  const environment = await environmentFor('tau-airline');
  if (environment === undefined) throw new Error('the airline environment is missing');
  const { tools } = withSampleResults(
    toolSpecSchema
      .array()
      .parse(JSON.parse(await readFile(root('packs/tau-airline/tools.json'), 'utf8')))
      .filter((tool) => tool.name !== 'send_certificate'),
    await airlineSamples(environment),
  );
  const list = (value: string | undefined) => value?.split(',').map((name) => name.trim());
  const generateTools = list(values.generate);
  try {
    const evaluation = await evaluateCompiler({
      model: recording ?? model,
      budget,
      out: values.out ?? (await mkdtemp(join(tmpdir(), 'agentguard-eval-compiler-'))),
      document: await readFile(root('data/tau-airline/wiki.md'), 'utf8'),
      tools,
      mapTools: list(values.map) ?? [...gold.keys()],
      ...(generateTools === undefined ? {} : { generateTools }),
      gold,
      reviewedPack: root('packs/tau-airline'),
      runs: await readTrajectories(values.runs ?? root('data/tau-airline/trajectories-gpt-4o.json')),
      environment,
      domain: 'tau-airline',
      clock: airlineClock,
      timeZone: '-05:00',
      timeoutMs: Number(values.timeout) * 1000,
      concurrency: Number(values.concurrency),
      describeDomain: !values['draft-domain'],
      onProgress: (line) => process.stderr.write(`${line}\n`),
    });
    if (values.json !== undefined) await writeAtomically(values.json, `${JSON.stringify(evaluation, null, 2)}\n`);
    return [formatCompilerEvaluation(evaluation), '', ...formatSpending(budget)].join('\n');
  } finally {
    if (recording !== undefined && values.record !== undefined) await recording.save(values.record);
  }
}

if (import.meta.main) process.stdout.write(`${await runCompilerEvaluation(process.argv.slice(2))}\n`);
