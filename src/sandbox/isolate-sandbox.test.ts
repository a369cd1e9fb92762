import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsolateSandbox } from './isolate-sandbox.ts';
import type { SandboxCase } from './sandbox.ts';

const sandbox = new IsolateSandbox();
const oneCase: SandboxCase = {
  call: { id: 'c', name: 'act', arguments: { n: 5 } },
  messages: [{ role: 'user', text: 'Yes, please proceed.' }],
  lookups: [{ tool: 'look', arguments: { id: 'a' }, result: { limit: 3 } }],
  now: Date.parse('2024-05-15T20:00:00Z'),
};
const run = (body: string, files: Record<string, string> = {}, timeoutMs = 500) =>
  sandbox.runChecks({
    policy: 'act.test',
    entry: 'guards/act/test.ts',
    files: new Map(Object.entries({ 'guards/act/test.ts': body, ...files })),
    cases: [oneCase],
    timeoutMs,
  });

describe('IsolateSandbox', () => {
  it('runs TypeScript checks with lookups, the conversation, the clock and pack imports', async () => {
    const [outcome] = await run(
      `import type { PolicyCheck } from 'agentguard';
       import { over } from '../lib/limits.ts';
       export const check: PolicyCheck<{ n: number }> = async (args, context) => {
         const { limit } = (await context.invoker.invoke('look', { id: 'a' })) as { limit: number };
         const confirmed = context.conversation.confirmation() !== undefined;
         return over(args.n, limit) && confirmed ? { message: 'n ' + args.n + ' at ' + context.now.toISOString() } : undefined;
       };`,
      { 'guards/lib/limits.ts': 'export const over = (n: number, limit: number): boolean => n > limit;' },
    );
    assert.deepEqual(outcome, { policy: 'act.test', finding: { message: 'n 5 at 2024-05-15T20:00:00.000Z' } });
  });
  it('reports throws, malformed results and missing lookups as faults', async () => {
    assert.equal(
      ((await run("export const check = () => { throw new Error('boom'); };"))[0] as { fault: string }).fault,
      'threw',
    );
    assert.equal(((await run('export const check = () => 42;'))[0] as { fault: string }).fault, 'malformed');
    const [missing] = await run("export const check = (args, context) => context.invoker.invoke('look', { id: 'b' });");
    assert.match((missing as { message: string }).message, /no answer for look/);
  });

  const escapes: [string, string][] = [
    ['process', 'export const check = () => { process.exit(1); };'],
    ['require', "export const check = () => { require('node:fs'); };"],
    [
      'a Function constructor reaching for process',
      "export const check = () => { (function () {}).constructor('return process')().exit(1); };",
    ],
    [
      'a static import of node:fs',
      "import { readFileSync } from 'node:fs'; export const check = () => { readFileSync('/etc/passwd'); };",
    ],
    [
      'a dynamic import of node:child_process',
      "export const check = async () => { await import('node:child_process'); };",
    ],
    ['an import outside the pack', "import { x } from '../../../../src/index.ts'; export const check = () => x;"],
    ['fetch', "export const check = async () => { await fetch('http://127.0.0.1:9'); };"],
    ['globalThis.process', 'export const check = () => globalThis.process.env;'],
  ];
  for (const [name, body] of escapes) {
    it(`keeps guard code from reaching the host: ${name}`, async () => {
      const [outcome] = await run(body);
      assert.ok(outcome !== undefined && 'fault' in outcome, JSON.stringify(outcome));
    });
  }
  it('stops a synchronous endless loop', async () => {
    const started = performance.now();
    const [outcome] = await run('export const check = () => { while (true) {} };', {}, 200);
    assert.equal((outcome as { fault: string }).fault, 'timeout');
    assert.ok(performance.now() - started < 2000);
  });
  it('stops a check that never settles', async () => {
    const [outcome] = await run('export const check = () => new Promise(() => {});', {}, 200);
    assert.equal((outcome as { fault: string }).fault, 'timeout');
  });
  it('stops a memory bomb', async () => {
    const [outcome] = await run(
      'export const check = () => { const a = []; for (;;) a.push(new Array(1e6).fill(1)); };',
      {},
      5000,
    );
    assert.ok(outcome !== undefined && 'fault' in outcome);
  });
});
