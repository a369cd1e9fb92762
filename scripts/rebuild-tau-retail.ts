/**
 * Regenerates the tau-retail pack with `agentguard compile build --replay` from a recording and compares the result
 * with the committed pack: `npm run rebuild:tau-retail -- --out <dir>` (the reviewed pack's recording; exits 1 when
 * they differ), or `-- --out <dir> --model-build` (the model's own build, before the review: prints where the review
 * changed it).
 */
import { parseArgs } from 'node:util';
import { rebuildFromRecording } from './compile-build.ts';
import { buildOptions, modelRecordingFile, packDir, recordingFile } from './tau-retail-build.ts';

/** Runs the build from `recording` into `out`; returns the paths where it differs from the committed pack. */
export async function rebuildTauRetail(out: string, recording = recordingFile): Promise<string[]> {
  return rebuildFromRecording(buildOptions(out, { reviewed: recording !== modelRecordingFile }), recording, packDir);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, 'model-build': { type: 'boolean' } } });
  if (values.out === undefined) throw new Error('usage: npm run rebuild:tau-retail -- --out <dir> [--model-build]');
  const model = values['model-build'] === true;
  const differences = await rebuildTauRetail(values.out, model ? modelRecordingFile : recordingFile);
  if (differences.length === 0) console.log(`rebuilt into ${values.out}: identical to packs/tau-retail`);
  else console.log(`differs from packs/tau-retail in:\n${differences.map((path) => `  ${path}`).join('\n')}`);
  process.exitCode = differences.length === 0 || model ? 0 : 1;
}
