import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { loadPack } from '../pack/load-pack.ts';
import type { Manifest } from '../pack/manifest.ts';
import { readTestCases } from '../pack/test-case.ts';
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

/** Whether an element lies within the window. */
const inView = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= (element.ownerDocument.defaultView?.innerHeight ?? 0);
  });

const backgroundOf = (locator: Locator) =>
  locator.evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).backgroundColor);

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
    server = await startReviewServer({
      pack: dir,
      decisions: replayDecisionSource(verdicts, { trajectories: root('data/tau-airline/trajectories-gpt-4o.json') }),
    });
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

  it('goes from a sentence to its policy by keyboard, marking the references that cite it, then back', async () => {
    const sentence = page.locator('.sentence', { hasText: 'All reservations can be cancelled within 24 hours' });
    assert.equal(await sentence.getAttribute('data-cited-by'), 'cancel.eligibility');
    const index = Number((await sentence.getAttribute('id'))?.slice('s-'.length));
    const chip = page.locator('li', { has: sentence }).locator('a.chip', { hasText: 'cancel.eligibility' }).first();
    await chip.focus();
    assert.notEqual(
      await chip.evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).outlineStyle),
      'none',
    );
    await page.keyboard.press('Enter');
    await page.locator('#policy-title').waitFor();
    assert.equal(new URL(page.url()).hash, `#policy/cancel.eligibility/sentence/${index}`);
    assert.equal(await page.locator('#policy-title').innerText(), 'Cancellation eligibility');
    const marked = page.locator('.reference.target');
    assert.equal(await marked.count(), 1, 'the one reference citing the sentence is marked');
    assert.match(await marked.innerText(), /All reservations can be cancelled within 24 hours/);
    assert.ok(await marked.evaluate((element) => element.ownerDocument.activeElement === element), 'and focused');
    assert.ok(await inView(marked), 'and scrolled into view');
    assert.equal(await backgroundOf(page.locator('.reference').nth(1)), 'rgba(0, 0, 0, 0)');
    assert.notEqual(await backgroundOf(marked), 'rgba(0, 0, 0, 0)', 'visibly');

    await marked.getByRole('link', { name: `sentence ${index + 1}` }).press('Enter');
    const target = page.locator(`#s-${index}`);
    await page.locator(`#s-${index}.target`).waitFor();
    assert.equal(await page.locator('.sentence.target').count(), 1);
    assert.ok(await target.evaluate((element) => element.ownerDocument.activeElement === element));
    assert.ok(await inView(target));
    assert.notEqual(await backgroundOf(target), await backgroundOf(page.locator(`#s-${index + 1}`)));
  });

  it("shows a policy's guard with each helper it imports once, and each test case's full input", async () => {
    await page.goto(`${server.url}#policy/cancel.eligibility`);
    await page.locator('#policy-title').waitFor();
    assert.match(await page.locator('#code details.module').first().locator('pre').innerText(), /export const check/);
    assert.ok((await page.locator('#code .tok-keyword').count()) > 0, 'the code is highlighted');
    const helpers = await page.locator('#helpers details').evaluateAll((all) => all.map((d) => d.dataset.path));
    assert.ok(helpers.includes('guards/lib/airline.ts') && helpers.includes('guards/lib/records.ts'), `${helpers}`);
    assert.equal(new Set(helpers).size, helpers.length);
    const airline = page.locator('#helpers details[data-path="guards/lib/airline.ts"]');
    assert.equal(await airline.locator('pre').count(), 0, 'highlighted when opened');
    await airline.locator('summary').press('Enter');
    assert.match(await airline.locator('pre').innerText(), /export function findReservation/);

    const cases = (await readTestCases(join(dir, 'tests/cancel_reservation.cases.json'))).filter(
      (testCase) => testCase.policy === 'cancel.eligibility',
    );
    const shown = page.locator('#tests article.case');
    assert.equal(await shown.count(), cases.length);
    assert.equal(await page.locator('#test-summary').innerText(), `${cases.length} of ${cases.length} pass.`);
    for (const [index, testCase] of cases.entries()) {
      const article = shown.nth(index);
      assert.match(await article.locator('h4').innerText(), new RegExp(`^pass ${testCase.kind}: `));
      assert.deepEqual(JSON.parse(await article.locator('pre.arguments').innerText()), testCase.arguments);
      assert.equal(await article.locator('.conversation > li').count(), testCase.conversation.length);
      assert.equal(await article.locator('.lookups > li').count(), testCase.lookups.length);
      const firstLookup = testCase.lookups[0];
      if (firstLookup !== undefined) {
        await article.locator('.lookups summary').first().click();
        assert.deepEqual(JSON.parse(await article.locator('.lookups pre').first().innerText()), firstLookup.result);
      }
      assert.match(await article.locator('.clock').innerText(), new RegExp(testCase.now ?? 'the pack'));
    }
  });

  it('samples the calls a policy refused and let through, each with its conversation and records', async () => {
    assert.match(await page.locator('#decision-counts').innerText(), new RegExp(`did not allow ${denials} of them`));
    assert.ok(denials > 0, 'the replayed runs hold denials of the policy');
    const refused = page.locator('#refused .decision');
    assert.equal(await refused.count(), Math.min(denials, 8));
    assert.match(await page.locator('#refused h4').innerText(), new RegExp(`^Calls it refused: ${denials}`));
    assert.match(await refused.first().locator('pre.call').innerText(), /^cancel_reservation \{/);
    await refused.first().locator('details.records > summary').click();
    await refused.first().locator('details.records .lookups summary').first().click();
    const record = JSON.parse(await refused.first().locator('details.records .lookups pre').first().innerText());
    assert.equal(typeof record.reservation_id, 'string', 'the reservation the guard read');
    await refused.first().locator('details.conversation-before > summary').click();
    const messages = refused.first().locator('.conversation-before .conversation > li');
    assert.ok((await messages.count()) > 1);
    assert.match(await messages.last().innerText(), /^(user|assistant|tool)/);
    const allowed = page.locator('#allowed .decision');
    assert.ok((await allowed.count()) > 0, 'calls it let through are shown too');
    assert.ok((await allowed.locator('details.conversation-before').count()) > 0);
  });

  it('finds policies by text, tool, state, approval and refusals', async () => {
    const shown = () =>
      page.locator('#policy-list li:not([hidden])').evaluateAll((all) => all.map((li) => li.dataset.policy));
    const total = (await packOverview(await loadPack(dir, { importGuards: false }))).policies.length;
    assert.equal((await shown()).length, total);
    await page.locator('#filter-text').fill('24 hours');
    assert.ok((await shown()).includes('cancel.eligibility'));
    assert.ok(!(await shown()).includes('book.max_passengers'));
    await page.locator('#filter-text').fill('');
    await page.locator('#filter-tool').selectOption('cancel_reservation');
    assert.ok((await shown()).every((id) => id?.startsWith('cancel.')));
    await page.locator('#filter-state').selectOption('archived');
    assert.deepEqual(await shown(), ['cancel.refund_timing']);
    await page.locator('#filter-state').selectOption('');
    await page.locator('#filter-refused').check();
    assert.ok((await shown()).includes('cancel.eligibility'));
    assert.ok(!(await shown()).includes('cancel.refund_timing'));
    assert.match(await page.locator('#filter-count').innerText(), new RegExp(`of ${total} policies shown`));
    await page.locator('#filter-tool').selectOption('');
    await page.locator('#filter-refused').uncheck();
    await page.locator('#filter-approval').selectOption('approved');
    assert.deepEqual(await shown(), [], 'nothing is approved yet');
    await page.locator('#filter-approval').selectOption('');
    assert.equal((await shown()).length, total);
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
    await page.locator('#filter-approval').selectOption('unapproved');
    const unapproved = await page
      .locator('#policy-list li:not([hidden])')
      .evaluateAll((all) => all.map((li) => li.dataset.policy));
    assert.ok(unapproved.includes('cancel.eligibility'), 'the policy whose guard changed');
    assert.ok(!unapproved.includes('book.max_passengers'), 'a policy the edit does not reach stays approved');
  });
});
