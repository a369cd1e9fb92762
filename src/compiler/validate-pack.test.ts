import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadPack } from '../pack/load-pack.ts';
import { environmentFor } from '../replay/environment.ts';
import { readTrajectories } from '../replay/trajectories.ts';
import { formatValidation, validatePack } from './validate-pack.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('validatePack', () => {
  it("reports each policy's denial rate and answers on recorded runs, flags one that refuses most calls, and keeps it in the manifest", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentguard-validate-'));
    await cp(join(root, 'packs/tau-airline'), dir, { recursive: true });
    // An over-strict confirmation check: it refuses every cancellation.
    await writeFile(
      join(dir, 'guards/cancel_reservation/user_confirmation.ts'),
      "import type { PolicyCheck } from 'agentguard';\nexport const check: PolicyCheck = () => ({ message: 'the confirmation does not list every argument' });\n",
    );
    const runs = (await readTrajectories(join(root, 'data/tau-airline/trajectories-gpt-4o.json'))).slice(0, 40);
    const fresh = await environmentFor('tau-airline');
    assert.ok(fresh !== undefined);
    const validation = await validatePack(dir, runs, fresh);
    const strict = validation.policies['cancel.user_confirmation'];
    assert.ok(strict !== undefined && strict.calls > 0);
    assert.deepEqual([strict.denied, strict.denialRate, strict.flagged], [strict.calls, 1, true]);
    assert.equal(validation.policies['cancel.not_flown']?.flagged, false);
    assert.deepEqual(strict.answers, { yes: 0, no: strict.calls, unsure: 0 });
    const asking = validation.policies['flights.payment_stated']?.answers;
    assert.ok(
      asking !== undefined && asking.unsure > 0 && asking.no === 0,
      'a policy set to ask counts its findings unsure',
    );
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    assert.deepEqual(manifest.validation, validation);
    assert.equal((await loadPack(dir)).manifest.validation?.policies['cancel.user_confirmation']?.flagged, true);
    assert.match(formatValidation(validation).join('\n'), /REVIEW\s+\d+\/\d+\s+100%\s+cancel\.user_confirmation/);
  });
});
