import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatAdapterBench, runAdapterBench } from './adapters.ts';

it('the adapter benchmark times each framework guarded beside unguarded', async () => {
  const rows = await runAdapterBench(2, 1);
  assert.deepEqual(
    rows.map((row) => row.framework),
    ['AI SDK (generateText)', 'OpenAI Agents (run)', 'LangChain (createAgent)'],
  );
  for (const row of rows) assert.ok(row.guarded.p50 > 0 && row.unguarded.p50 > 0, row.framework);
  assert.match(formatAdapterBench(rows), /\| framework \| runs \| unguarded p50/);
});
