import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lookupsSource } from './lookups-source.ts';

const work = await mkdtemp(join(tmpdir(), 'agentguard-lookups-'));
const file = async (name: string, value: unknown) => {
  const path = join(work, name);
  await writeFile(path, JSON.stringify(value));
  return path;
};

describe('lookupsSource', () => {
  it('answers from a records file by tool and deeply equal arguments; a failing record and a missing one fail', async () => {
    const records = await file('records.json', [
      { tool: 'get_order', arguments: { id: 'A1', lines: [1] }, result: { status: 'shipped' } },
      { tool: 'get_order', arguments: { id: 'B2' }, error: 'order B2 does not exist' },
    ]);
    const { invoker, run, now } = (await lookupsSource(records, 1000))();
    assert.deepEqual(await invoker.invoke('get_order', { lines: [1], id: 'A1' }), { status: 'shipped' });
    await assert.rejects(invoker.invoke('get_order', { id: 'B2' }), /order B2 does not exist/);
    await assert.rejects(invoker.invoke('get_order', { id: 'C3' }), /no answer for `get_order`\({"id":"C3"}\) in /);
    assert.equal(run, undefined);
    assert.equal(now, undefined);
  });
  it('names the JSON path of a malformed record, and what --lookups takes when the file does not exist', async () => {
    const bad = await file('bad.json', [{ tool: 'get_order', arguments: [] }]);
    await assert.rejects(lookupsSource(bad, 1000), /invalid `.*bad\.json`: \$\[0\]\.arguments/);
    await assert.rejects(
      lookupsSource(join(work, 'missing.json'), 1000),
      /expected an http\(s\) URL, `tau-airline` or a lookup records file, got `.*missing\.json` \(no such file\)/,
    );
  });
  it('runs the shipped domain, with its clock', async () => {
    const environment = (await lookupsSource('tau-airline', 1000))();
    assert.equal(typeof environment.run, 'function');
    assert.equal(environment.now?.toISOString(), '2024-05-15T20:00:00.000Z');
  });
});
