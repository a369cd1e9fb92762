/**
 * Screenshots of the review page for the docs (`docs/review-document.png`, `docs/review-policy*.png`) and the page's
 * load time for the airline pack, on a temporary copy of the pack with the decisions of the 200 recorded GPT-4o runs.
 * Needs Chromium (Debian's `chromium` package, or CHROMIUM_PATH). Run: `npm run screenshots:review [-- --loads 7]`.
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
const { lines } = await replay(
  runtime,
  await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json')),
  fresh,
);
await runtime.close();
const verdicts = join(dir, '..', 'verdicts.jsonl');
await writeFile(verdicts, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));

const server = await startReviewServer({ pack: dir, decisions: replayDecisionSource(verdicts) });
const browser = await launchChromium(executablePath);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Milliseconds from navigation start to the page's `review-ready` mark, over fresh pages. */
async function loadTimes(hash: string): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < loads; index++) {
    const page = await browser.newPage();
    await page.goto(`${server.url}${hash}`);
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

  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(server.url);
  await page.locator('body[data-ready]').waitFor();
  await page.screenshot({ path: root('docs/review-document.png') });
  await page.goto(`${server.url}#policy/cancel.eligibility`);
  await page.locator('#test-summary').waitFor();
  await page.locator('#policy-title').evaluate((element) => element.blur());
  await page.screenshot({ path: root('docs/review-policy.png') });
  await page
    .locator('#decisions details')
    .first()
    .evaluate((element) => element.setAttribute('open', ''));
  for (const section of ['code', 'decisions']) {
    await page.locator(`#${section}`).evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: root(`docs/review-policy-${section}.png`) });
  }

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
        machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, Chromium ${browser.version()}`,
        screenshots: ['document', 'policy', 'policy-code', 'policy-decisions'].map((name) => `docs/review-${name}.png`),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await browser.close();
  await server.close();
}
