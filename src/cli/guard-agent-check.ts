import { readFile } from 'node:fs/promises';
import { AgentGuardError } from '../errors.ts';
import { compileGuardProgram } from '../guard-agent/compile-program.ts';
import { GuardAgent } from '../guard-agent/guard-agent.ts';
import { DemonstrationMemory, taskValue } from '../guard-agent/memory.ts';
import { loadProgramPack } from '../guard-agent/program-pack.ts';
import { loadPostgresParser } from '../guard-agent/toolbox/postgres-parser.ts';
import { createToolbox } from '../guard-agent/toolbox/toolbox.ts';
import { Budget } from '../llm/budget.ts';
import { RecordingModel, ReplayModel, readCassette } from '../llm/cassette.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { createLanguageModel } from '../llm/providers.ts';

/** Reads a file as JSON when it is JSON, else as text. */
const readValue = async (file: string) => taskValue(await readFile(file, 'utf8'));

/** A model that is never asked: a compiled program must decide. */
const noModel: LanguageModel = {
  id: 'none',
  complete: () =>
    Promise.reject(
      new AgentGuardError('invalid_input', 'the compiled program abstained and no model was given (--model)'),
    ),
};

/** What both guard-agent commands take: the request, the agent's spec, the model and the memory. */
interface GuardAgentOptions {
  request: string;
  spec: string;
  model?: string;
  baseUrl?: string;
  replay?: string;
  memory?: string;
  seed?: string;
  /** Time limit of one model call, in seconds. */
  timeout: string;
}

/** The time limit of one model call, in milliseconds, from `--timeout <seconds>`. */
export function modelTimeoutMs(seconds: string): number {
  const value = Number(seconds);
  if (!Number.isFinite(value) || value <= 0)
    throw new AgentGuardError('invalid_input', `--timeout takes a number of seconds above 0, not \`${seconds}\``);
  return value * 1000;
}

/** The model budget of one command. */
const commandBudget = () => new Budget({ maxCalls: 20, maxTokens: 1_000_000 });

async function modelFor(options: { model?: string; baseUrl?: string; replay?: string }): Promise<LanguageModel> {
  if (options.replay !== undefined) return new ReplayModel(await readCassette(options.replay));
  if (options.model !== undefined)
    return createLanguageModel(options.model, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  return noModel;
}

/**
 * The model of a guard-agent command, recorded when `record` names a file (`finish` writes it). The recording says
 * what answered: the model's name, or for `exchange:<dir>` that a chat model answered request files.
 */
export async function recordedModelFor(options: {
  model?: string;
  baseUrl?: string;
  replay?: string;
  record?: string;
}): Promise<{ model: LanguageModel; finish: () => Promise<void> }> {
  const model = await modelFor(options);
  if (options.record === undefined) return { model, finish: async () => {} };
  const source = model.id.startsWith('exchange:') ? 'exchange: a chat model answering the request files' : model.id;
  // Saved after every answer too, so a long run (a chat model answering exchange files) that stops keeps its answers.
  const recording = new RecordingModel(model, source, options.record);
  const file = options.record;
  return { model: recording, finish: () => recording.save(file) };
}

/** The toolbox functions `--functions` names, when it is given. */
const functionsOf = (options: { functions?: string }) =>
  options.functions === undefined ? {} : { functions: options.functions.split(',').map((name) => name.trim()) };

/** Opens the memory (a SQLite file persists it) and adds the seed demonstrations. */
export async function memoryFor(options: { memory?: string; seed?: string }): Promise<DemonstrationMemory> {
  const memory = DemonstrationMemory.open(options.memory ?? ':memory:');
  if (options.seed !== undefined) await memory.seed(options.seed);
  return memory;
}

/** `agentguard guard-agent compile`: a guard program for a request, tested on the memory's demonstrations. Exit 3 when it never passes. */
export async function guardAgentCompileCommand(
  options: GuardAgentOptions & { out: string; functions?: string },
): Promise<void> {
  await loadPostgresParser();
  const memory = await memoryFor(options);
  try {
    const compiled = await compileGuardProgram({
      request: await readFile(options.request, 'utf8'),
      spec: await readFile(options.spec, 'utf8'),
      memory,
      model: await modelFor(options),
      budget: commandBudget(),
      toolbox: createToolbox(),
      out: options.out,
      modelTimeoutMs: modelTimeoutMs(options.timeout),
      ...functionsOf(options),
    });
    process.stdout.write(`${JSON.stringify(compiled, null, 2)}\n`);
    process.exitCode = compiled.state === 'green' ? 0 : 3;
  } finally {
    memory.close();
  }
}

/** `agentguard guard-agent check`. Exit code 0 granted, 2 denied. */
export async function guardAgentCheckCommand(
  options: GuardAgentOptions & {
    input: string;
    output: string;
    compiled?: string;
    confirm?: string;
    functions?: string;
  },
): Promise<void> {
  if (options.confirm !== undefined && options.confirm !== '0' && options.confirm !== '1')
    throw new AgentGuardError(
      'invalid_input',
      `--confirm takes the confirmed label, 0 or 1, not \`${options.confirm}\``,
    );
  await loadPostgresParser();
  const model = await modelFor(options);
  const memory = await memoryFor(options);
  try {
    const agent = new GuardAgent({
      model,
      budget: commandBudget(),
      toolbox: createToolbox(),
      memory,
      modelTimeoutMs: modelTimeoutMs(options.timeout),
      ...(options.compiled === undefined ? {} : { compiled: await loadProgramPack(options.compiled) }),
    });
    const query = {
      request: await readFile(options.request, 'utf8'),
      spec: await readFile(options.spec, 'utf8'),
      input: await readValue(options.input),
      output: await readValue(options.output),
      ...functionsOf(options),
    };
    const result = await agent.check(query);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (options.confirm !== undefined) {
      const agrees = result.label === Number(options.confirm);
      if (agrees) agent.confirm(query, result);
      process.stderr.write(
        agrees
          ? 'the decision agrees with the confirmed label: stored in the memory as a confirmed demonstration\n'
          : `the decision (label ${result.label}) disagrees with the confirmed label ${options.confirm}: not stored\n`,
      );
    }
    process.exitCode = result.label === 0 ? 0 : 2;
  } finally {
    memory.close();
  }
}
