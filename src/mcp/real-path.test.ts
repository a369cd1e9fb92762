import assert from 'node:assert/strict';
import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { realPathOf } from './real-path.ts';

describe('realPathOf', () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'agentguard-real-path-')));
    await writeFile(join(root, '.env'), 'API_KEY=1\n');
    await link(join(root, '.env'), join(root, 'hard.txt'));
    await symlink('.env', join(root, 'innocent.txt'));
    await mkdir(join(root, 'config'));
    await symlink('config', join(root, 'settings'));
    await symlink('missing', join(root, 'dangling'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('follows a link to the file it points to', async () => {
    assert.deepEqual(await realPathOf(join(root, 'innocent.txt')), {
      realPath: join(root, '.env'),
      exists: true,
      isDirectory: false,
      hardLinks: 2,
    });
  });

  it('resolves `.`, `..` and trailing separators, and says a directory is one', async () => {
    const found = await realPathOf(`${root}/src/../settings/.//`);
    assert.deepEqual(
      { ...found, hardLinks: undefined },
      {
        realPath: join(root, 'config'),
        exists: true,
        isDirectory: true,
        hardLinks: undefined,
      },
    );
  });

  it('resolves a path that does not exist through its deepest existing folder', async () => {
    assert.deepEqual(await realPathOf(`${root}/settings/new/.env`), {
      realPath: join(root, 'config', 'new', '.env'),
      exists: false,
      isDirectory: false,
      hardLinks: 0,
    });
  });

  it('rejects a link whose target does not exist, and a relative path', async () => {
    await assert.rejects(
      realPathOf(join(root, 'dangling')),
      /`[^`]+dangling` is a symbolic link whose target does not exist/,
    );
    await assert.rejects(realPathOf('notes.txt'), /`notes\.txt` is not an absolute path/);
  });
});
