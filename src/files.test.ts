import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeAtomically } from './files.ts';

describe('writeAtomically', () => {
  it('lets many writes of one file run at the same time: each lands whole, and no temporary file is left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentguard-files-'));
    try {
      const file = join(dir, 'out.json');
      const contents = Array.from(
        { length: 20 },
        (_, index) => `${JSON.stringify({ index, pad: 'x'.repeat(5000) })}\n`,
      );
      await Promise.all(contents.map((content) => writeAtomically(file, content)));
      assert.ok(contents.includes(await readFile(file, 'utf8')));
      assert.deepEqual(await readdir(dir), ['out.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
