import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { packDifferences } from '../../scripts/rebuild-tau-airline.ts';
import { buildTauAirline, packDir, recordingFile } from '../../scripts/tau-airline-build.ts';
import { ReplayModel, readCassette } from '../llm/cassette.ts';
import { startFakeOpenAIServer } from '../llm/fake-openai-server.ts';
import { createLanguageModel } from '../llm/providers.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { loadPack } from '../pack/load-pack.ts';
import { runCases } from '../pack/run-cases.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { guardContext } from '../testing/index.ts';

const temporary = () => mkdtemp(join(tmpdir(), 'agentguard-airline-'));
const cassette = await readCassette(recordingFile);

/**
 * The recorded answers in order, with faults injected: an invalid JSON answer before the first test case, a type
 * error and a failing check before the reviewed code of `cancel.not_flown`, and `cancel.reason_obtained` never green.
 */
function answersWithFaults(): string[] {
  const answers: string[] = [];
  let firstCase = true;
  for (const entry of cassette.entries) {
    if (entry.step.startsWith('generate.test_case') && firstCase) {
      answers.push('{"arguments": ');
      firstCase = false;
    }
    if (entry.step.startsWith('generate.implementation') && entry.text.includes('`cancel.not_flown`')) {
      const code = (JSON.parse(entry.text) as { code: string }).code;
      answers.push(JSON.stringify({ code: code.replace('isFlown(segment)', 'isFlown(segment, true)') }));
      answers.push(JSON.stringify({ code: code.replace('if (isFlown(segment)) {', 'if (!isFlown(segment)) {') }));
    }
    if (entry.step.startsWith('generate.implementation') && entry.text.includes('`cancel.reason_obtained`')) {
      const never = JSON.stringify({
        code: "import type { PolicyCheck } from 'agentguard';\nimport type { CancelReservationArgs } from '../../types.ts';\n\nexport const check: PolicyCheck<CancelReservationArgs> = () => undefined;\n",
      });
      answers.push(never, never, never, never);
      continue;
    }
    answers.push(entry.text);
  }
  return answers;
}

describe('building the airline pack through the generator', () => {
  it('npm run rebuild:tau-airline reproduces the committed pack exactly from the recording', async () => {
    const out = await temporary();
    const reports = await buildTauAirline(out, new ReplayModel(cassette));
    assert.equal(reports.filter((report) => report.state === 'enforced').length, 41);
    assert.deepEqual(await packDifferences(packDir, out), []);
  });

  it('goes through every repair path with a scripted model, and the same build over HTTP gives the same pack', async () => {
    const scripted = await temporary();
    const reports = await buildTauAirline(scripted, new ScriptedModel(answersWithFaults()), { maxRepairs: 3 });
    const byPolicy = new Map(reports.map((report) => [report.policy, report]));
    assert.equal(byPolicy.get('cancel.not_flown')?.state, 'enforced');
    assert.equal(byPolicy.get('cancel.not_flown')?.repairs, 2);
    assert.equal(byPolicy.get('cancel.reason_obtained')?.state, 'not_enforced');
    assert.match(
      byPolicy.get('cancel.reason_obtained')?.reason ?? '',
      /after 3 repairs; last failure: violation example/,
    );
    assert.equal(reports.filter((report) => report.state === 'enforced').length, 40);

    const pack = await loadPack(scripted);
    for (const tool of [
      'book_reservation',
      'cancel_reservation',
      'send_certificate',
      'update_reservation_baggages',
      'update_reservation_flights',
      'update_reservation_passengers',
    ]) {
      const cases = JSON.parse(await readFile(join(scripted, 'tests', `${tool}.cases.json`), 'utf8'));
      assert.ok(
        (await runCases(pack, cases)).every((result) => result.outcome === 'pass'),
        tool,
      );
    }
    const verdict = await new GuardRuntime([pack]).check(
      { id: 'c', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } },
      guardContext(),
    );
    assert.ok(
      verdict.violations.some(
        (violation) => violation.policy === 'cancel.reason_obtained' && violation.fault === 'not_enforced',
      ),
    );

    const answers = answersWithFaults();
    const server = await startFakeOpenAIServer(() => answers.shift() ?? '');
    try {
      const baseUrl = server.baseUrl;
      const overHttp = await temporary();
      await buildTauAirline(
        overHttp,
        createLanguageModel('openai-compatible:scripted', { baseUrl, maxRetries: 0 }, {}),
        { maxRepairs: 3 },
      );
      assert.deepEqual(await packDifferences(scripted, overHttp), []);
    } finally {
      await server.close();
    }
  });
});
