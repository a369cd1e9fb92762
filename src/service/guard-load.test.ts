import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import { writeFixturePack } from '../pack/fixture-pack.ts';
import { loadPack } from '../pack/load-pack.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { createService } from './create-service.ts';
import { noLookups } from './lookups.ts';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../cli/main.ts', import.meta.url));

/** A reviewed pack whose guard module imports a file that is not there. */
const unloadablePack = () =>
  writeFixturePack({
    policies: [{ id: 'act.limit' }],
    guardSource: "import { limit } from './nowhere.js';\nexport const checks = { 'act.limit': () => limit };\n",
  });

/** What a command printed and its exit code. */
async function outcome(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [cli, ...args], { timeout: 30_000 });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('an enforced policy whose guard cannot be loaded', () => {
  it('keeps `serve` from starting, naming the policy and the load error', async () => {
    const pack = await unloadablePack();
    const { code, stderr } = await outcome(['serve', '--pack', pack, '--port', '0']);
    assert.equal(code, 1);
    assert.match(
      stderr,
      /policy `act\.limit` of `fixture` \(tool `act`\): cannot be loaded: Cannot find module .*nowhere\.js/,
    );
  });

  it('keeps `mcp` from starting, before it starts the upstream', async () => {
    const pack = await unloadablePack();
    const marker = join(pack, 'upstream-started');
    const upstream = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`;
    const { code, stderr } = await outcome(['mcp', '--pack', pack, '--', process.execPath, '-e', upstream]);
    assert.equal(code, 1);
    assert.match(stderr, /policy `act\.limit` of `fixture` \(tool `act`\): cannot be loaded: Cannot find module/);
    await assert.rejects(run('test', ['-e', marker]));
  });

  it('keeps the library service from starting', async () => {
    const pack = await loadPack(await unloadablePack());
    await assert.rejects(createService({ packs: [pack], invoker: noLookups }), {
      code: 'invalid_pack',
      message: /^1 enforced policy cannot be loaded, so every call they guard would be denied: policy `act\.limit`/,
    });
  });

  it('turns /healthz to 503, naming it, when a restarted guard worker cannot load it', async () => {
    const dir = await writeFixturePack({
      reviewed: false,
      policies: [
        {
          id: 'act.limit',
          body: 'if (args.n === 99) for (;;) {} return args.n > 3 ? { message: "too many" } : undefined;',
        },
      ],
    });
    const app = await createService({ packs: [await loadPack(dir)], invoker: noLookups, runtime: { timeoutMs: 200 } });
    const health = () => app.inject({ method: 'GET', url: '/healthz' });
    assert.equal((await health()).statusCode, 200);
    await writeFile(join(dir, 'guards/act.js'), 'export const checks = {;\n');
    // A check that loops forever: its worker is terminated, and the next one imports the guard module anew.
    const looping = await app.inject({
      method: 'POST',
      url: '/v1/check',
      payload: { call: { id: 'c1', name: 'act', arguments: { n: 99 } } },
    });
    assert.equal(looping.json().decision, 'deny');
    const failing = await health();
    assert.equal(failing.statusCode, 503);
    assert.equal(failing.json().status, 'failing');
    assert.match(failing.json().guards.reason, /policy `act\.limit` of `fixture` \(tool `act`\): cannot be loaded: /);
    await app.close();
  });

  it('is listed by the runtime with why, and its calls are denied', async () => {
    const pack = await loadPack(await unloadablePack());
    const runtime = new GuardRuntime([pack]);
    const failures = await runtime.loadFailures();
    assert.deepEqual(
      failures.map(({ pack, tool, policy }) => [pack, tool, policy]),
      [['fixture', 'act', 'act.limit']],
    );
    assert.match(failures[0]?.reason ?? '', /^cannot be loaded: Cannot find module .*nowhere\.js/);
    const context = { conversation: fromOpenAIChat([], 'messages'), invoker: noLookups, now: new Date() };
    assert.equal((await runtime.check({ id: 'c', name: 'act', arguments: { n: 1 } }, context)).decision, 'deny');
    await runtime.close();
  });
});
