/**
 * The build of the tau-retail pack through `agentguard compile build`: its inputs (tau-bench retail's `wiki.md` and
 * tool list, sample lookup results from the retail data) and the one argument list that recording and rebuilding
 * share. `node scripts/tau-retail-build.ts --samples` writes the samples file from the data.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadRetailData, RetailDatabase } from '../src/domains/tau-retail/database.ts';
import { RetailTools } from '../src/domains/tau-retail/retail-tools.ts';
import { lookupSamples } from './lookup-samples.ts';

/** The committed pack. */
export const packDir = fileURLToPath(new URL('../packs/tau-retail/', import.meta.url));
/** The recording that rebuilds the committed pack: its answers are the reviewed pack's (see `record-tau-retail.ts`). */
export const recordingFile = fileURLToPath(new URL('../packs/tau-retail.recording.json', import.meta.url));
/** The recording of the model's own build, before the review. */
export const modelRecordingFile = fileURLToPath(new URL('../packs/tau-retail.model.recording.json', import.meta.url));
/** Results of the retail lookups, from which the build learns their result schemas (the tool list carries none). */
export const samplesFile = fileURLToPath(new URL('../packs/tau-retail.samples.json', import.meta.url));
const dataDir = fileURLToPath(new URL('../data/tau-retail/', import.meta.url));

/**
 * The options of `agentguard compile build` for this pack, writing to `out` (the model aside). The reviewed build takes
 * the pack's reviewed helpers (`guards/lib`: its domain description, the cancellation reasons); the model's build, as
 * it was made, took agentguard's drafts (`{ reviewed: false }`).
 */
export function buildOptions(out: string, { reviewed = true }: { reviewed?: boolean } = {}) {
  return {
    policy: join(dataDir, 'wiki.md'),
    tools: join(dataDir, 'tools.json'),
    ...(reviewed ? { helpers: join(packDir, 'guards', 'lib') } : {}),
    readOnly: [...RetailTools.lookups, 'think'].join(','),
    samples: samplesFile,
    domain: 'tau-retail',
    rounds: '2',
    votes: '3',
    maxRepairs: '3',
    maxCalls: '1000',
    maxTokens: '50000000',
    timeout: '120',
    out,
  };
}

/**
 * Sample results of the lookups guards use, each from a real call against the retail data: the first users, three
 * orders of each status, the first products and the product types.
 */
export async function retailSamples(): Promise<Record<string, unknown[]>> {
  const data = await loadRetailData();
  const { invoker } = new RetailTools(new RetailDatabase(data));
  const orders = Object.values(data.orders);
  const statuses = [...new Set(orders.map((order) => order.status))].sort();
  return lookupSamples(invoker, {
    get_user_details: Object.keys(data.users)
      .slice(0, 5)
      .map((user_id) => ({ user_id })),
    get_order_details: statuses.flatMap((status) =>
      orders
        .filter((order) => order.status === status)
        .slice(0, 3)
        .map(({ order_id }) => ({ order_id })),
    ),
    get_product_details: Object.keys(data.products)
      .slice(0, 5)
      .map((product_id) => ({ product_id })),
    list_all_product_types: [{}],
  });
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { samples: { type: 'boolean' } } });
  if (values.samples !== true) throw new Error('usage: node scripts/tau-retail-build.ts --samples');
  await writeFile(samplesFile, `${JSON.stringify(await retailSamples(), null, 1)}\n`);
  console.log(`wrote ${samplesFile}`);
}
