import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFixturePack } from './fixture-pack.ts';
import { loadPack } from './load-pack.ts';
import { runCases } from './run-cases.ts';
import type { TestCase } from './test-case.ts';

const policies = [
  {
    id: 'act.limit',
    body: "const limit = await context.invoker.invoke('look', { what: 'limit' }); return args.n > limit ? { message: 'too many' } : undefined;",
  },
];
const base = {
  tool: 'act',
  policy: 'act.limit',
  example: 'an example',
  conversation: [],
  lookups: [{ tool: 'look', arguments: { what: 'limit' }, result: 3 }],
};

describe('runCases', () => {
  for (const reviewed of [true, false]) {
    it(`passes, fails and errors cases one policy at a time (${reviewed ? 'in-process' : 'in a worker'})`, async () => {
      const pack = await loadPack(await writeFixturePack({ policies, reviewed }));
      const cases: TestCase[] = [
        { ...base, kind: 'compliance', arguments: { n: 2 } },
        { ...base, kind: 'violation', arguments: { n: 5 } },
        { ...base, kind: 'violation', arguments: { n: 1 } },
        { ...base, kind: 'compliance', arguments: { n: 1 }, lookups: [] },
        { ...base, policy: 'act.other', kind: 'compliance', arguments: { n: 1 } },
      ];
      const results = await runCases(pack, cases);
      assert.deepEqual(
        results.map((result) => result.outcome),
        ['pass', 'pass', 'fail', 'error', 'error'],
      );
      assert.match(results[2]?.detail ?? '', /expected a violation/);
      assert.match(results[3]?.detail ?? '', /no answer for look/);
    });
  }
});
