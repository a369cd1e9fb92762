/**
 * Screenshots of the review page for the docs (`docs/review-document.png`, `docs/review-policy*.png`) and the page's
 * load times: for the airline pack, on a temporary copy of the pack with the decisions of the 200 recorded GPT-4o
 * runs and their conversations; for the filesystem pack, without decisions. Needs Chromium (Debian's `chromium`
 * package, or CHROMIUM_PATH). Run: `npm run screenshots:review [-- --loads 7]`.
 */
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPack } from '../src/pack/load-pack.ts';
import { environmentFor } from '../src/replay/environment.ts';
import { replay } from '../src/replay/replay.ts';
import { readTrajectories } from '../src/replay/trajectories.ts';
import { findChromium, launchChromium } from '../src/review/chromium.ts';
import { replayDecisionSource } from '../src/review/decision-source.ts';
import { packOverview } from '../src/review/review-model.ts';
import { startReviewServer } from '../src/review/review-server.ts';
import { GuardRuntime } from '../src/runtime/guard-runtime.ts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const { values } = parseArgs({ options: { loads: { type: 'string', default: '7' } } });
const loads = Number(values.loads);

const executablePath = findChromium();
if (executablePath === undefined) {
  process.stderr.write("no Chromium found: install Debian's `chromium` package or set CHROMIUM_PATH\n");
  process.exit(1);
}

const dir = join(await mkdtemp(join(tmpdir(), 'agentguard-screenshots-')), 'tau-airline');
await cp(root('packs/tau-airline'), dir, { recursive: true });
const runtime = new GuardRuntime([await loadPack(dir)]);
const fresh = await environmentFor('tau-airline');
if (fresh === undefined) throw new Error('no environment for tau-airline');
const trajectories = root('data/tau-airline/trajectories-gpt-4o.json');
const { lines } = await replay(runtime, await readTrajectories(trajectories), fresh);
await runtime.close();
const verdicts = join(dir, '..', 'verdicts.jsonl');
await writeFile(verdicts, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));

const server = await startReviewServer({ pack: dir, decisions: replayDecisionSource(verdicts, { trajectories }) });
const filesystem = await startReviewServer({ pack: root('packs/mcp-filesystem') });
const browser = await launchChromium(executablePath);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Milliseconds from navigation start to the page's `review-ready` mark, over fresh pages. */
async function loadTimes(hash: string, url = server.url): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < loads; index++) {
    const page = await browser.newPage();
    await page.goto(`${url}${hash}`);
    await page.locator('body[data-ready]').waitFor();
    times.push(await page.evaluate(() => performance.getEntriesByName('review-ready')[0]?.startTime ?? Number.NaN));
    await page.close();
  }
  return times;
}

try {
  // One load first, so both views are measured warm (server modules and the worker's imports loaded).
  await loadTimes('#policy/cancel.eligibility');
  const documentTimes = await loadTimes('');
  const policyTimes = await loadTimes('#policy/cancel.eligibility');
  const secrets = '#policy/read_file.no_secrets_files';
  await loadTimes(secrets, filesystem.url);
  const filesystemTimes = {
    document: await loadTimes('', filesystem.url),
    policy: await loadTimes(secrets, filesystem.url),
  };

  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(server.url);
  await page.locator('body[data-ready]').waitFor();
  await page.screenshot({ path: root('docs/review-document.png') });
  // From a sentence's policy link: the policy view marks the reference that cites the sentence.
  const sentence = page.locator('.sentence', { hasText: 'All reservations can be cancelled within 24 hours' });
  await page.locator('li', { has: sentence }).locator('a.chip', { hasText: 'cancel.eligibility' }).first().click();
  await page.locator('#test-summary').waitFor();
  await page.locator('.reference.target').evaluate((element) => element.blur());
  await page.screenshot({ path: root('docs/review-policy.png') });
  await page.locator('#filter-tool').selectOption('cancel_reservation');
  await page.locator('#filter-refused').check();
  await page.locator('#code').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: root('docs/review-policy-code.png') });
  await page
    .locator('#tests article.case')
    .nth(1)
    .evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.locator('#tests article.case').nth(1).locator('.lookups summary').first().click();
  await page.screenshot({ path: root('docs/review-policy-tests.png') });
  const refused = page.locator('#refused .decision').first();
  await refused.locator('details.records > summary').click();
  await refused.locator('details.records .lookups summary').first().click();
  await refused.locator('details.conversation-before > summary').click();
  await page.locator('#decisions').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: root('docs/review-policy-decisions.png') });

  const { coverage } = await packOverview(await loadPack(dir, { importGuards: false }));
  const round = (value: number) => Math.round(value);
  process.stdout.write(
    `${JSON.stringify(
      {
        pack: 'packs/tau-airline',
        decisions: lines.length,
        coverage: { ...coverage, ratio: Number((coverage.cited / coverage.sentences).toFixed(3)) },
        loads,
        documentViewMs: { median: round(median(documentTimes)), all: documentTimes.map(round) },
        policyViewMs: { median: round(median(policyTimes)), all: policyTimes.map(round) },
        filesystem: {
          pack: 'packs/mcp-filesystem',
          documentViewMs: { median: round(median(filesystemTimes.document)), all: filesystemTimes.document.map(round) },
          policyViewMs: { median: round(median(filesystemTimes.policy)), all: filesystemTimes.policy.map(round) },
        },
        machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, Chromium ${browser.version()}`,
        screenshots: ['document', 'policy', 'policy-code', 'policy-tests', 'policy-decisions'].map(
          (name) => `docs/review-${name}.png`,
        ),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await browser.close();
  await server.close();
  await filesystem.close();
}
