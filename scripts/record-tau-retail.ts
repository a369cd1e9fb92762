/**
 * Writes `packs/tau-retail.recording.json`: a recording of `agentguard compile build` for the retail pack whose
 * answers are the committed pack's spec, guard code and test cases (`reviewedModel`): the model's build
 * (`packs/tau-retail.model.recording.json`) with the review's changes (`docs/tau-retail-pack.md`). Run after
 * reviewing a change to the spec, a guard or a test case: `npm run record:tau-retail`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileBuild } from '../src/cli/compile-command.ts';
import { RetailTools } from '../src/domains/tau-retail/retail-tools.ts';
import { readSpecDirectory } from '../src/pack/spec-directory.ts';
import { packDifferences } from './rebuild-tau-airline.ts';
import { reviewedModel } from './reviewed-answers.ts';
import { buildOptions, packDir, recordingFile } from './tau-retail-build.ts';

const reviewed = reviewedModel({
  packDir,
  specs: await readSpecDirectory(join(packDir, 'spec')),
  lookupNames: [...RetailTools.lookups].map((name) => [new RegExp(`\\b${name}\\b`), name]),
  source:
    "answers from the reviewed pack packs/tau-retail: the model's build (packs/tau-retail.model.recording.json) with the changes of its review",
});
await rm(recordingFile, { force: true });
const out = await mkdtemp(join(tmpdir(), 'tau-retail-record-'));
const reports = await compileBuild({ ...buildOptions(out), record: recordingFile }, reviewed);
const failing = reports.filter((report) => report.state === 'not_enforced');
for (const report of failing) console.error(`not enforced: ${report.policy}: ${report.reason}`);
const differences = await packDifferences(packDir, out);
if (differences.length > 0) console.error(`the build differs from the pack in:\n  ${differences.join('\n  ')}`);
await rm(out, { recursive: true, force: true });
console.log(`recorded the answers for ${reports.length} policies to ${recordingFile}`);
process.exitCode = failing.length > 0 || differences.length > 0 ? 1 : 0;
