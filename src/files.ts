import { rename, writeFile } from 'node:fs/promises';

let written = 0;

/**
 * Writes a file whole or not at all: to a temporary file beside it, then renamed over it. Each call has its own
 * temporary file, so calls at the same time never collide; the one renamed last wins.
 *
 * @example
 * ```ts
 * await writeAtomically('out.jsonl', lines.join(''));
 * ```
 */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${++written}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}
