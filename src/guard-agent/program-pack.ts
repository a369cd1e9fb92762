import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { InputError } from '../errors.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import type { GuardProgram } from './guard-program.ts';

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
  program: GuardProgram;
  demonstrations: ProgramExample[];
}

/**
 * Loads a compiled guard program pack: its manifest, program and demonstrations. Only reviewed programs are loaded
 * to run in-process; a malformed pack throws an `InputError` naming the file and place.
 *
 * @example
 * ```ts
 * const { program } = await loadProgramPack('packs/sql-access-control');
 * ```
 */
export async function loadProgramPack(dir: string): Promise<ProgramPack> {
  const root = resolve(dir);
  const read = async (name: string) => parseJsonText(await readFile(join(root, name), 'utf8'), join(dir, name));
  const manifest = parseInput(manifestSchema, await read('manifest.json'), join(dir, 'manifest.json'), {
    code: 'invalid_pack',
  });
  if (!manifest.reviewed) {
    throw new InputError(
      join(dir, 'manifest.json'),
      [{ location: '$.reviewed', message: 'only reviewed programs run in-process' }],
      'invalid_pack',
    );
  }
  const module = (await import(pathToFileURL(join(root, manifest.program)).href)) as { program?: unknown };
  if (typeof module.program !== 'function') {
    throw new InputError(
      join(dir, manifest.program),
      [{ location: 'program', message: 'expected an exported `program` function' }],
      'invalid_pack',
    );
  }
  const demonstrations = parseInput(
    z.array(programExampleSchema),
    await read(manifest.demonstrations),
    join(dir, manifest.demonstrations),
    { code: 'invalid_pack' },
  );
  return { dir: root, request: manifest.request, program: module.program as GuardProgram, demonstrations };
}
