import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

it('the README quick start is this example, and it runs', async () => {
  const example = await readFile(new URL('quick-start.ts', import.meta.url), 'utf8');
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(example.trim()), 'README.md does not contain examples/quick-start.ts');
  const result = spawnSync(process.execPath, ['--conditions=agentguard-source', 'examples/quick-start.ts'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^deny\n/);
  assert.match(result.stdout, /cancel\.eligibility/);
});
