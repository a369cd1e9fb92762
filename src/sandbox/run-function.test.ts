import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runIsolated } from './run-function.ts';

const secret = 'host-secret-7f3a';
process.env['AGENTGUARD_SANDBOX_SECRET'] = secret;
let hostCalls = 0;
const functions = {
  Echo: (value: unknown) => {
    hostCalls++;
    return value;
  },
  Lookup: () => ({ rows: [1, 2, 3] }),
};
const run = (body: string, timeoutMs = 300) =>
  runIsolated({
    source: `function guard(input, output) {\n${body}\n}`,
    entry: 'guard',
    args: [{ a: 1 }, 'out'],
    functions,
    timeoutMs,
  });

describe('runIsolated', () => {
  it('runs a function with JSON arguments and host functions', async () => {
    assert.deepEqual(await run('return { label: Echo(input.a) + Lookup().rows.length, out: output };'), {
      ok: true,
      value: { label: 4, out: 'out' },
    });
  });

  const escapes: [string, string][] = [
    ['process.exit', 'process.exit(1);'],
    ['require', "return require('node:fs').readFileSync('/etc/hostname', 'utf8');"],
    ['a dynamic import', "return import('node:fs');"],
    ['this.constructor.constructor', "return this.constructor.constructor('return process')().env;"],
    ['the Function constructor', "return Function('return process')().env;"],
    ['eval', "return eval('process').env;"],
    ['globalThis.process', 'return globalThis.process.env;'],
    ['an async function constructor', "return (async () => {}).constructor('return process')();"],
    ['a generator function constructor', "return (function* () {}).constructor('return process')().next();"],
    ['Reflect.construct of Function', "return Reflect.construct(Function, ['return process'])().env;"],
    ['a host function constructor', "return Echo.constructor('return process')().env;"],
    ['the raw host callback constructor', "return __host_Echo.constructor('return process')().env;"],
    [
      'stack frames of prepareStackTrace',
      'Error.prepareStackTrace = (e, frames) => frames.map((f) => String(f.getThis && f.getThis())); return new Error().stack;',
    ],
    ['a malformed payload to the raw host callback', "return __host_Echo('{not json');"],
    ['a function passed to the host', 'return Echo(() => process);'],
    ['a proxy passed to the host', "return Echo(new Proxy({}, { get: () => { throw new Error('trap'); } }));"],
    [
      'prototype pollution',
      "Object.prototype.polluted = 'yes'; Array.prototype.push = () => 0; return Echo({ x: 1 });",
    ],
    ['a toJSON that reaches for process', 'return { toJSON() { return process.env; } };'],
    ['a returned function', 'return () => process;'],
    ['setTimeout', "setTimeout(() => 1, 1); return 'scheduled';"],
    ['fetch', "return fetch('http://127.0.0.1:9');"],
    ['XMLHttpRequest', 'return new XMLHttpRequest();'],
    ['WebSocket', "return new WebSocket('ws://127.0.0.1:9');"],
    ['an endless loop', 'while (true) {}'],
    ['endless recursion', 'const f = () => f(); return f();'],
    ['a memory bomb', 'const a = []; for (;;) a.push(new Array(1e6).fill(1));'],
    [
      'Atomics.wait forever',
      'const view = new Int32Array(new SharedArrayBuffer(4)); Atomics.wait(view, 0, 0); return 1;',
    ],
    ['a huge string to the host', "return Echo('x'.repeat(2 ** 29));"],
    ['arguments.callee.caller', "'use strict'; return arguments.callee.caller;"],
    ['import.meta', 'return import.meta.url;'],
    [
      'the host environment through Symbol registries',
      "return Symbol.for('nodejs.util.inspect.custom').description + String(globalThis.Deno ?? globalThis.Bun ?? globalThis.process);",
    ],
    ['overriding JSON for the host', 'JSON.stringify = () => \'{"value": "forged"}\'; return Echo(1);'],
  ];
  for (const [name, body] of escapes) {
    it(`keeps code from reaching the host: ${name}`, async () => {
      const result = await run(body, name.includes('memory') || name.includes('huge') ? 3000 : 300);
      assert.ok(!JSON.stringify(result).includes(secret), 'the host secret leaked');
      if (result.ok)
        assert.ok(
          !/process|require|forged/.test(JSON.stringify(result.value)) ||
            name === 'the host environment through Symbol registries',
          JSON.stringify(result.value),
        );
      assert.equal((Object.prototype as unknown as Record<string, unknown>)['polluted'], undefined);
      assert.equal([1].push(2), 2, 'host Array.prototype is untouched');
    });
  }
  it('has at least thirty escape attempts', () => assert.ok(escapes.length >= 30));
  it('the host callbacks were only ever called with copies', () => assert.ok(hostCalls >= 1));
});
