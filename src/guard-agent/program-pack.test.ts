import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadProgramPack } from './program-pack.ts';
import { loadPostgresParser } from './toolbox/postgres-parser.ts';
import { createToolbox } from './toolbox/toolbox.ts';

before(() => loadPostgresParser());

describe('the sql-access-control program', () => {
  it('decides every demonstration of its pack, naming the denied tables', async () => {
    const pack = await loadProgramPack(fileURLToPath(new URL('../../packs/sql-access-control/', import.meta.url)));
    const toolbox = createToolbox();
    for (const demonstration of pack.examples) {
      const decision = await pack.decide({ input: demonstration.input, output: demonstration.output }, toolbox);
      assert.ok(!('abstain' in decision), demonstration.note);
      assert.equal(decision.label, demonstration.label, demonstration.note);
      if (decision.label === 1) {
        assert.equal(decision.guardedOutput, null);
        const tables = decision.reasons.flatMap((reason) => (reason.kind === 'access' ? [reason.table] : []));
        assert.deepEqual(tables, demonstration.denied_tables, demonstration.note);
      } else assert.equal(decision.guardedOutput, demonstration.output);
    }
  });
  it('abstains when the task is not SQL access control', async () => {
    const pack = await loadProgramPack(fileURLToPath(new URL('../../packs/sql-access-control/', import.meta.url)));
    assert.deepEqual(await pack.decide({ input: {}, output: { answer: 'hello' } }, createToolbox()), {
      abstain: 'the agent output carries no SQL query',
    });
  });
});
