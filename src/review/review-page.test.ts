import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { loadPack } from '../pack/load-pack.ts';
import type { Manifest } from '../pack/manifest.ts';
import { environmentFor } from '../replay/environment.ts';
import { replay } from '../replay/replay.ts';
import { readTrajectories } from '../replay/trajectories.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { findChromium, launchChromium } from './chromium.ts';
import { replayDecisionSource } from './decision-source.ts';
import { packOverview } from './review-model.ts';
import { type ReviewServer, startReviewServer } from './review-server.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const executablePath = findChromium();
const skip =
  executablePath === undefined
    ? "no Chromium found (install Debian's `chromium` package, or set CHROMIUM_PATH): the review page is not tested in a browser"
    : false;

describe('review page in Chromium', { skip }, () => {
  let dir: string;
  let server: ReviewServer;
  let browser: Browser;
  let page: Page;
  let denials: number;

  before(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'agentguard-review-page-')), 'tau-airline');
    await cp(root('packs/tau-airline'), dir, { recursive: true });
    const manifestFile = join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
    manifest.reviewed = false;
    const book = manifest.guards.book_reservation?.policies ?? [];
    const insurance = book.findIndex((policy) => policy.id === 'book.insurance_offered');
    book[insurance] = { id: 'book.insurance_offered', state: 'not_enforced', reason: 'a test case failed' };
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    // Decisions from a real replay of the first 40 recorded runs through the bundled pack.
    const source = await loadPack(root('packs/tau-airline'));
    const runtime = new GuardRuntime([source]);
    const fresh = await environmentFor('tau-airline');
    assert.ok(fresh !== undefined);
    const runs = (await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json'))).slice(0, 40);
    const { lines } = await replay(runtime, runs, fresh);
    await runtime.close();
    denials = lines.filter((line) => line.violations.some((found) => found.policy === 'cancel.eligibility')).length;
    const verdicts = join(dir, '..', 'verdicts.jsonl');
    await writeFile(verdicts, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    server = await startReviewServer({ pack: dir, decisions: replayDecisionSource(verdicts) });
    browser = await launchChromium(executablePath as string);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the document with its coverage and uncovered sentences', async () => {
    await page.goto(server.url);
    const { coverage } = await packOverview(await loadPack(dir, { importGuards: false }));
    const text = await page.locator('#coverage').innerText();
    assert.match(text, new RegExp(`${coverage.cited} of ${coverage.sentences} sentences`));
    assert.equal(await page.locator('.sentence.uncovered').count(), coverage.sentences - coverage.cited);
    assert.match(await page.locator('#archived').innerText(), /cancel\.refund_timing/);
    assert.match(await page.locator('#general').innerText(), /general\.transfer_scope/);
    assert.equal(await page.locator('#review-state').getAttribute('data-state'), 'unreviewed');
  });

  it('goes from a sentence to its policy, by keyboard, then to its code, tests and decisions', async () => {
    const sentence = page.locator('.sentence', { hasText: 'All reservations can be cancelled within 24 hours' });
    assert.equal(await sentence.getAttribute('data-cited-by'), 'cancel.eligibility');
    const chip = page.locator('li', { has: sentence }).locator('a.chip', { hasText: 'cancel.eligibility' }).first();
    await chip.focus();
    assert.notEqual(
      await chip.evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).outlineStyle),
      'none',
    );
    await page.keyboard.press('Enter');
    await page.locator('#policy-title').waitFor();
    assert.equal(new URL(page.url()).hash, '#policy/cancel.eligibility');
    assert.equal(await page.locator('#policy-title').innerText(), 'Cancellation eligibility');
    assert.ok(
      await page.locator('#policy-title').evaluate((element) => element.ownerDocument.activeElement === element),
      'the policy heading has the focus',
    );
    assert.match(await page.locator('#code pre').innerText(), /export const check/);
    assert.ok((await page.locator('#code .tok-keyword').count()) > 0, 'the code is highlighted');
    const rows = page.locator('#tests tbody tr');
    const total = await rows.count();
    assert.ok(total > 0);
    assert.equal(await page.locator('#test-summary').innerText(), `${total} of ${total} pass.`);
    assert.match(await page.locator('#decision-counts').innerText(), new RegExp(`did not allow ${denials} of them`));
    assert.ok(denials > 0, 'the replayed runs hold denials of the policy');
    assert.match(await page.locator('.decision pre').first().innerText(), /^cancel_reservation \{/);
  });

  it('opens a policy from a deep link', async () => {
    const other = await browser.newPage();
    await other.goto(`${server.url}#policy/cancel.not_flown`);
    assert.equal(await other.locator('#policy-title').innerText(), 'Only unflown trips');
    assert.equal(await other.locator('#state').getAttribute('data-state'), 'enforced');
    await other.close();
  });

  it('refuses approval with a policy not enforced until accepted, then an edit to a guard clears it', async () => {
    await page.goto(`${server.url}#document`);
    await page.locator('#reviewer').fill('policy-owner@example.com');
    await page.locator('#approve').press('Enter');
    await page.locator('#approve-message.message-error').waitFor();
    assert.match(await page.locator('#approve-message').innerText(), /book\.insurance_offered is not enforced/);
    assert.equal((await loadPack(dir)).manifest.reviewed, false);
    await page.locator('#accept-not-enforced').check();
    await page.locator('#approve').press('Enter');
    await page.locator('#review-state[data-state="reviewed"]').waitFor();
    assert.match(await page.locator('#review-state').innerText(), /Reviewed by policy-owner@example.com/);
    assert.equal((await loadPack(dir)).manifest.reviewed, true);

    await appendFile(join(dir, 'guards/cancel_reservation/eligibility.ts'), '\n// edited after review\n');
    await page.reload();
    await page.locator('#review-state[data-state="void"]').waitFor();
    assert.match(
      await page.locator('#review-state').innerText(),
      /approval by policy-owner@example.com no longer holds; changed since: guards\/cancel_reservation\/eligibility\.ts \(changed\)/,
    );
    assert.equal((await loadPack(dir)).manifest.reviewed, false);
  });
});
