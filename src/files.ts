import { rename, writeFile } from 'node:fs/promises';

/**
 * Writes a file whole or not at all: to a temporary file beside it, then renamed over it.
 *
 * @example
 * ```ts
 * await writeAtomically('out.jsonl', lines.join(''));
 * ```
 */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}
