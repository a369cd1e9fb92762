import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { InputError } from '../errors.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import { loadTypeScriptFrom } from '../pack/typescript-loader.ts';
import { runIsolated } from '../sandbox/run-function.ts';
import type { GuardDecision, GuardProgram, GuardReason, GuardTask } from './guard-program.ts';
import { codeToolbox, type ToolboxFunction } from './toolbox/code-toolbox.ts';
import type { Toolbox } from './toolbox/toolbox.ts';

const manifestSchema = z.object({
  format: z.literal(1),
  kind: z.literal('guard-program'),
  /** The guard request the program answers. */
  request: z.string().min(1),
  reviewed: z.boolean(),
  program: z.string(),
  demonstrations: z.string(),
});

/** A demonstration: a task, its expected label and (for denials) the tables that must be named. */
export const programExampleSchema = z.object({
  note: z.string().optional(),
  input: z.unknown(),
  output: z.unknown(),
  label: z.union([z.literal(0), z.literal(1)]),
  denied_tables: z.array(z.string()).optional(),
});

/** A demonstration of a guard program. */
export type ProgramExample = z.output<typeof programExampleSchema>;

/** A compiled guard program loaded from its pack. */
export interface ProgramPack {
  dir: string;
  request: string;
  reviewed: boolean;
  examples: ProgramExample[];
  /** The program of a reviewed pack, run in-process and synchronously; absent for generated programs. */
  program: GuardProgram | undefined;
  /**
   * Decides a task: in-process for a reviewed program, in an isolate for a generated one, which may also call the
   * `functions` given (such as `Classify`) besides the toolbox.
   */
  decide(
    task: GuardTask,
    toolbox: Toolbox,
    functions?: readonly ToolboxFunction[],
  ): Promise<GuardDecision | { abstain: string }>;
}

/** Reads what generated program code returned: an abstention, a decision, or a problem. */
export function programResult(value: unknown, output: unknown): GuardDecision | { abstain: string } | string {
  if (typeof value === 'object' && value !== null && typeof (value as { abstain?: unknown }).abstain === 'string') {
    return { abstain: (value as { abstain: string }).abstain };
  }
  const { label, reasons } = (value ?? {}) as { label?: unknown; reasons?: unknown };
  if (label !== 0 && label !== 1)
    return `returned ${JSON.stringify(value)?.slice(0, 200)}, expected { label: 0 | 1, reasons } or { abstain }`;
  return {
    label,
    reasons: Array.isArray(reasons) ? (reasons as GuardReason[]) : [],
    guardedOutput: label === 0 ? output : null,
  };
}

/** Runs generated program code on a task in an isolate, with the toolbox and any `extra` functions as JSON host functions. */
export async function runProgramCode(
  code: string,
  task: GuardTask,
  toolbox: Toolbox,
  extra: readonly ToolboxFunction[] = [],
): Promise<GuardDecision | { abstain: string } | string> {
  const functions = Object.fromEntries(codeToolbox(toolbox, extra).map((item) => [item.name, item.run]));
  const ran = await runIsolated({
    source: code,
    entry: 'program',
    args: [task.input, task.output],
    functions,
    timeoutMs: 1000,
  });
  return ran.ok ? programResult(ran.value, task.output) : `failed: ${ran.error}`;
}

/**
 * Loads a compiled guard program pack: its manifest, program and examples. A reviewed program is imported and runs
 * in-process; a generated one runs in an isolate and never in-process. A malformed pack throws an `InputError`
 * naming the file and place.
 *
 * @example
 * ```ts
 * const pack = await loadProgramPack('packs/sql-access-control');
 * const decision = await pack.decide({ input, output }, createToolbox());
 * ```
 */
export async function loadProgramPack(dir: string): Promise<ProgramPack> {
  const root = resolve(dir);
  const read = async (name: string) => parseJsonText(await readFile(join(root, name), 'utf8'), join(dir, name));
  const manifest = parseInput(manifestSchema, await read('manifest.json'), join(dir, 'manifest.json'), {
    code: 'invalid_pack',
  });
  const examples = parseInput(
    z.array(programExampleSchema),
    await read(manifest.demonstrations),
    join(dir, manifest.demonstrations),
    {
      code: 'invalid_pack',
    },
  );
  if (!manifest.reviewed) {
    const code = await readFile(join(root, manifest.program), 'utf8');
    return {
      dir: root,
      request: manifest.request,
      reviewed: false,
      examples,
      program: undefined,
      decide: async (task, toolbox, functions) => {
        const result = await runProgramCode(code, task, toolbox, functions);
        return typeof result === 'string'
          ? {
              label: 1,
              reasons: [{ kind: 'undetermined', message: `the compiled program ${result}` }],
              guardedOutput: null,
            }
          : result;
      },
    };
  }
  loadTypeScriptFrom(root);
  const module = (await import(pathToFileURL(join(root, manifest.program)).href)) as { program?: unknown };
  if (typeof module.program !== 'function') {
    throw new InputError(
      join(dir, manifest.program),
      [{ location: 'program', message: 'expected an exported `program` function' }],
      'invalid_pack',
    );
  }
  const program = module.program as GuardProgram;
  return {
    dir: root,
    request: manifest.request,
    reviewed: true,
    examples,
    program,
    decide: async (task, toolbox) => program(task, toolbox),
  };
}

/** The in-process program of a reviewed pack; throws for a generated one, which runs only in an isolate. */
export function requireProgram(pack: ProgramPack): GuardProgram {
  if (pack.program === undefined) {
    throw new InputError(
      pack.dir,
      [{ location: '$.reviewed', message: 'a generated program runs only in an isolate: use decide()' }],
      'invalid_pack',
    );
  }
  return pack.program;
}
