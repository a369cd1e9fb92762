/**
 * Writes `packs/mcp-filesystem.recording.json` and the pack's generated files: asks the installed filesystem server
 * for its `tools/list`, then runs `agentguard compile build` with a scripted model whose answers are the pack's
 * reviewed spec (policies, effects, examples), guard code and test cases, written by people. The recording is
 * labelled as such; it is not a model's output. Run after reviewing a change to the policy, the spec, a guard or a
 * test case, or after the compiler's prompts change: `npm run record:mcp-filesystem`.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compileBuild } from '../src/cli/compile-command.ts';
import { realPathTool } from '../src/mcp/real-path.ts';
import { readSpecDirectory } from '../src/pack/spec-directory.ts';
import { buildOptions, listFilesystemTools, packDir, recordingFile, toolsListFile } from './mcp-filesystem-build.ts';
import { reviewedModel } from './reviewed-answers.ts';

const reviewed = reviewedModel({
  packDir,
  specs: await readSpecDirectory(join(packDir, 'spec')),
  lookupNames: [
    [/outsideFinding|allowedDirectories|secretsFinding/, 'list_allowed_directories'],
    [/outsideFinding|secretsFinding/, realPathTool.name],
    [/get_file_info|outsideFinding|secretsFinding/, 'get_file_info'],
    [/outsideFinding/, 'list_directory'],
    [/secretsFinding/, 'search_files'],
    [/secretsFinding/, 'directory_tree'],
  ],
  source:
    'scripted answers: the reviewed spec, guard code and test cases of packs/mcp-filesystem, written by people, not a model output',
});

const { values } = parseArgs({ options: { 'keep-tools': { type: 'boolean' } } });
if (values['keep-tools'] !== true) {
  // The server's tools, and the proxy's own lookup, which the guards call where the proxy runs beside the server.
  const listed = (await listFilesystemTools()) as { tools: unknown[] };
  await writeFile(toolsListFile, `${JSON.stringify({ ...listed, tools: [...listed.tools, realPathTool] }, null, 2)}\n`);
}
const out = await mkdtemp(join(tmpdir(), 'mcp-filesystem-record-'));
// Written anew, so that it holds only what the current prompts ask.
await rm(recordingFile, { force: true });
const reports = await compileBuild({ ...buildOptions(out), record: recordingFile }, reviewed);
const failing = reports.filter((report) => report.state === 'not_enforced');
for (const report of failing) console.error(`not enforced: ${report.policy}: ${report.reason}`);
if (failing.length === 0) {
  await rm(join(out, '.build'), { recursive: true, force: true });
  await cp(out, packDir, { recursive: true });
  console.log(`recorded the answers for ${reports.length} policies to ${recordingFile}; the pack is rewritten`);
}
await rm(out, { recursive: true, force: true });
process.exitCode = failing.length > 0 ? 1 : 0;
