import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { checkTimeZone } from '../compiler/domain-helpers.ts';
import { generatePack, type PolicyReport } from '../compiler/generate-pack.ts';
import { checkDocument, mapPolicies } from '../compiler/map-policies.ts';
import { GuardTypeChecker } from '../compiler/type-checker.ts';
import { formatValidation, validatePack } from '../compiler/validate-pack.ts';
import { AgentGuardError } from '../errors.ts';
import { Budget, formatSpending } from '../llm/budget.ts';
import { RecordingModel, ReplayModel, readCassette } from '../llm/cassette.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { createLanguageModel } from '../llm/providers.ts';
import { StepFailedError } from '../llm/structured.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import { loadPack } from '../pack/load-pack.ts';
import { toToolGuardSpec } from '../pack/policy-spec.ts';
import { readMapOutput } from '../pack/spec-directory.ts';
import { type ToolSpec, toolSpecSchema } from '../pack/tool-spec.ts';
import { environmentFor } from '../replay/environment.ts';
import { readTrajectories } from '../replay/trajectories.ts';
import { assertGuardsLoad } from '../runtime/guard-load.ts';
import { IsolateSandbox } from '../sandbox/isolate-sandbox.ts';
import { readToolSpecs } from '../tools/read-tool-specs.ts';
import { withSampleResults } from '../tools/result-schema.ts';

/** Options shared by the compile commands. */
export interface CompileOptions {
  out: string;
  model?: string;
  baseUrl?: string;
  record?: string;
  replay?: string;
  maxCalls: string;
  maxTokens: string;
  timeout: string;
  concurrency?: string;
}

/** The number of `--concurrency <n>`: a whole number from 1. */
function concurrencyOf(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) {
    throw new AgentGuardError('invalid_input', `--concurrency takes a whole number from 1, not \`${value}\``);
  }
  return count;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function modelFor(
  options: CompileOptions,
  given: LanguageModel | undefined,
): Promise<{ model: LanguageModel; finish: () => Promise<void> }> {
  let model: LanguageModel;
  if (given !== undefined) model = given;
  else if (options.replay !== undefined) model = new ReplayModel(await readCassette(options.replay));
  else {
    const name = options.model ?? (process.env.AGENTGUARD_MODEL || undefined);
    if (name === undefined) {
      throw new AgentGuardError(
        'invalid_input',
        'no model: pass --model <provider>:<model>, set AGENTGUARD_MODEL, or --replay a recording',
      );
    }
    model = createLanguageModel(name, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  }
  if (options.record === undefined) return { model, finish: async () => {} };
  const file = options.record;
  const recording = await RecordingModel.resuming(model, file);
  return { model: recording, finish: () => recording.save(file) };
}

const budgetFor = (options: CompileOptions) =>
  new Budget({ maxCalls: Number(options.maxCalls), maxTokens: Number(options.maxTokens) });

async function map(
  options: CompileOptions & {
    policy: string;
    tools: string;
    readOnly?: string;
    guardReadOnly?: string;
    rounds: string;
    votes: string;
    toolguard?: boolean;
    samples?: string;
  },
  model: LanguageModel,
  budget: Budget,
) {
  const document = await readFile(options.policy, 'utf8');
  checkDocument(document, options.policy);
  const read = await readToolSpecs(
    options.tools,
    options.readOnly === undefined ? {} : { readOnly: options.readOnly.split(',') },
  );
  if (read.guessed.length > 0) {
    log(
      `read-only flags guessed from tool names (set them with --read-only): ${read.tools
        .filter((tool) => read.guessed.includes(tool.name))
        .map((tool) => `${tool.name}=${tool.readOnly}`)
        .join(', ')}`,
    );
  }
  let tools = read.tools;
  if (options.samples !== undefined) {
    const samples = parseInput(
      z.record(z.string(), z.array(z.unknown())),
      parseJsonText(await readFile(options.samples, 'utf8'), options.samples),
      options.samples,
    );
    const learned = withSampleResults(tools, samples);
    if (learned.unknown.length > 0) {
      throw new AgentGuardError(
        'invalid_input',
        `\`${options.samples}\` has samples for tools the tool specs lack: ${learned.unknown.join(', ')}`,
      );
    }
    tools = learned.tools;
    log(`result schemas learned from samples: ${learned.learned.join(', ') || 'none (every sampled tool has one)'}`);
  }
  const result = await mapPolicies({
    document,
    tools,
    model,
    budget,
    workDir: join(options.out, '.build', 'map'),
    rounds: Number(options.rounds),
    ...(options.guardReadOnly === undefined ? {} : { guardReadOnly: options.guardReadOnly.split(',') }),
    timeoutMs: Number(options.timeout) * 1000,
    concurrency: concurrencyOf(options.concurrency ?? '1'),
    votes: Number(options.votes),
    onProgress: (tool, step) => log(`[map] ${tool}: ${step}`),
  });
  await mkdir(join(options.out, 'spec'), { recursive: true });
  await writeFile(join(options.out, 'policy.md'), document);
  await writeFile(join(options.out, 'tools.json'), `${JSON.stringify(tools, null, 2)}\n`);
  for (const [tool, spec] of result.specs)
    await writeFile(join(options.out, 'spec', `${tool}.json`), `${JSON.stringify(spec, null, 2)}\n`);
  await writeFile(
    join(options.out, 'archive.json'),
    `${JSON.stringify(Object.fromEntries(result.archived), null, 2)}\n`,
  );
  if (options.toolguard) {
    await mkdir(join(options.out, 'toolguard'), { recursive: true });
    for (const [tool, spec] of result.specs) {
      const json = toToolGuardSpec(spec, new Set(result.archived.keys()));
      await writeFile(join(options.out, 'toolguard', `${tool}.json`), `${JSON.stringify(json, null, 2)}\n`);
    }
  }
  for (const [tool, spec] of result.specs) {
    log(
      `${tool}: ${spec.policies.length} policies, ${spec.policies.filter((policy) => result.archived.has(policy.id)).length} archived`,
    );
  }
}

/** Helper modules from a folder, by their path in the pack (`guards/lib/…`). */
async function readHelpers(dir: string | undefined): Promise<Map<string, string>> {
  const helpers = new Map<string, string>();
  if (dir === undefined) return helpers;
  if (!existsSync(dir)) throw new AgentGuardError('invalid_input', `the helpers folder \`${dir}\` does not exist`);
  for (const name of (await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.ts')).sort()) {
    helpers.set(`guards/lib/${name.replaceAll('\\', '/')}`, await readFile(join(dir, name), 'utf8'));
  }
  return helpers;
}

/** The tools a validation replays recorded calls against: the domain's own. */
async function validationEnvironment(domain: string) {
  const fresh = await environmentFor(domain);
  if (fresh === undefined) {
    throw new AgentGuardError(
      'invalid_input',
      `--validate replays calls against the tools of the domain, and there is none for \`${domain}\` (known: tau-airline)`,
    );
  }
  return fresh;
}

/**
 * Loads the written pack the way the runtime will: its guards in a worker (as an unreviewed pack runs) and in this
 * thread (as a reviewed one runs). A guard that passed its tests in the isolate but cannot be loaded there fails the
 * build, naming the policy and the load error.
 */
async function assertWrittenPackLoads(dir: string): Promise<void> {
  const pack = await loadPack(dir, { importGuards: true });
  await assertGuardsLoad([pack]);
  await assertGuardsLoad([{ ...pack, manifest: { ...pack.manifest, reviewed: !pack.manifest.reviewed } }]);
}

async function generate(
  options: CompileOptions & {
    spec: string;
    helpers?: string;
    domain?: string;
    clock?: string;
    timeZone?: string;
    maxRepairs: string;
    force?: boolean;
    validate?: string;
  },
  model: LanguageModel,
  budget: Budget,
): Promise<PolicyReport[]> {
  const tools: ToolSpec[] = parseInput(
    z.array(toolSpecSchema),
    parseJsonText(await readFile(join(options.spec, 'tools.json'), 'utf8'), join(options.spec, 'tools.json')),
    join(options.spec, 'tools.json'),
  );
  const specs = await readMapOutput(options.spec);
  const fresh = options.validate === undefined ? undefined : await validationEnvironment(options.domain ?? 'domain');
  const reports = await generatePack({
    out: options.out,
    domain: options.domain ?? 'domain',
    description: 'Guards generated by agentguard from policy.md.',
    policyDocument: await readFile(join(options.spec, 'policy.md'), 'utf8'),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.timeZone === undefined ? {} : { timeZone: checkTimeZone(options.timeZone) }),
    tools,
    specs,
    helpers: await readHelpers(options.helpers),
    model,
    budget,
    sandbox: new IsolateSandbox(),
    typeChecker: new GuardTypeChecker(),
    maxRepairs: Number(options.maxRepairs),
    timeoutMs: Number(options.timeout) * 1000,
    concurrency: concurrencyOf(options.concurrency ?? '1'),
    ...(options.force === undefined ? {} : { force: options.force }),
    onProgress: (event) =>
      log(
        `[generate] ${[event.tool, event.policy].filter(Boolean).join(' ')}: ${event.step}${event.detail === undefined ? '' : ` (${event.detail.slice(0, 120)})`}`,
      ),
  });
  await mkdir(join(options.out, '.build'), { recursive: true });
  await writeFile(join(options.out, '.build', 'report.json'), `${JSON.stringify(reports, null, 2)}\n`);
  log('policies:');
  for (const report of reports) {
    const tests =
      report.state === 'archived'
        ? ''
        : ` tests ${report.tests.passed}/${report.tests.cases}, ${report.repairs} repairs`;
    log(
      `  ${report.state.padEnd(13)} ${report.policy}${tests}${report.reason === undefined ? '' : `: ${report.reason}`}`,
    );
    if (report.readsText !== undefined)
      log(`    reads message text itself (review it): ${report.readsText.join(' | ')}`);
  }
  await assertWrittenPackLoads(options.out);
  if (options.validate !== undefined && fresh !== undefined) {
    const validation = await validatePack(options.out, await readTrajectories(options.validate), fresh);
    for (const line of formatValidation(validation)) log(line);
  }
  return reports;
}

async function run<Result>(
  options: CompileOptions,
  work: (model: LanguageModel, budget: Budget) => Promise<Result>,
  given?: LanguageModel,
): Promise<Result> {
  const { model, finish } = await modelFor(options, given);
  const budget = budgetFor(options);
  try {
    return await work(model, budget);
  } catch (error) {
    if (error instanceof StepFailedError) {
      const file = join(options.out, '.build', 'failed', `${error.step}.txt`);
      await mkdir(join(options.out, '.build', 'failed'), { recursive: true });
      await writeFile(file, error.lastAnswer);
      log(
        `the last answer of step \`${error.step}\` is in ${file}; what earlier steps produced is kept, so run again to resume`,
      );
    }
    throw error;
  } finally {
    await finish();
    for (const line of formatSpending(budget)) log(line);
  }
}

const exitFor = (reports: readonly PolicyReport[]) => {
  process.exitCode = reports.some((report) => report.state === 'not_enforced') ? 3 : 0;
};

/** `agentguard compile map`: policy document and tool specs to tool-policy specs. */
export async function compileMapCommand(options: Parameters<typeof map>[0]): Promise<void> {
  await run(options, (model, budget) => map(options, model, budget));
}

/** `agentguard compile generate`: tool-policy specs to a guard pack. */
export async function compileGenerateCommand(options: Parameters<typeof generate>[0]): Promise<void> {
  exitFor(await run(options, (model, budget) => generate(options, model, budget)));
}

/** Options of `agentguard compile build`. */
export type CompileBuildOptions = Parameters<typeof map>[0] & Omit<Parameters<typeof generate>[0], 'spec'>;

/**
 * `compile build` as a function: both steps, the specs kept in the output folder, answered by `model` when given
 * (a scripted model, for instance) instead of `--model` or `--replay`; `--record` records either.
 */
export async function compileBuild(options: CompileBuildOptions, model?: LanguageModel): Promise<PolicyReport[]> {
  return run(
    options,
    async (chosen, budget) => {
      await map(options, chosen, budget);
      return generate({ ...options, spec: options.out }, chosen, budget);
    },
    model,
  );
}

/** `agentguard compile build`: both steps, the specs kept in the output folder. */
export async function compileBuildCommand(options: CompileBuildOptions): Promise<void> {
  exitFor(await compileBuild(options));
}
