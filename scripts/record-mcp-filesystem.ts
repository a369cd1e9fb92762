/**
 * Writes `packs/mcp-filesystem.recording.json` and the pack's generated files: asks the installed filesystem server
 * for its `tools/list`, then runs `agentguard compile build` with a scripted model whose answers are the pack's
 * reviewed spec (policies, effects, examples), guard code and test cases, written by people. The recording is
 * labelled as such; it is not a model's output. Run after reviewing a change to the policy, the spec, a guard or a
 * test case, or after the compiler's prompts change: `npm run record:mcp-filesystem`.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compileBuild } from '../src/cli/compile-command.ts';
import { policyFile } from '../src/compiler/pack-layout.ts';
import type { LanguageModel, ModelRequest } from '../src/llm/language-model.ts';
import { realPathTool } from '../src/mcp/real-path.ts';
import { readSpecDirectory } from '../src/pack/spec-directory.ts';
import { buildOptions, listFilesystemTools, packDir, recordingFile, toolsListFile } from './mcp-filesystem-build.ts';
import { reviewedCaseAnswers } from './reviewed-cases.ts';

const specs = await readSpecDirectory(join(packDir, 'spec'));

/** The tool a request is about: the first `"name"` of its prompt, which names the tool before anything else. */
const toolOf = (text: string) => /"name": "(\w+)"/.exec(text)?.[1] ?? '';
const policiesOf = (tool: string) => {
  const spec = specs.get(tool);
  if (spec === undefined) throw new Error(`the pack has no spec for \`${tool}\``);
  return spec.policies;
};
const draft = (policy: ReturnType<typeof policiesOf>[number]) => ({
  name: policy.name,
  description: policy.description,
  references: policy.references,
  ...(policy.effect === undefined ? {} : { effect: policy.effect }),
  ...(policy.remedy === undefined ? {} : { remedy: policy.remedy }),
});

/** Lookups a reviewed check makes, read from what it calls. */
const lookupNames: [RegExp, string][] = [
  [/outsideFinding|allowedDirectories|secretsFinding/, 'list_allowed_directories'],
  [/outsideFinding|secretsFinding/, realPathTool.name],
  [/get_file_info|outsideFinding|secretsFinding/, 'get_file_info'],
  [/outsideFinding/, 'list_directory'],
  [/secretsFinding/, 'search_files'],
  [/secretsFinding/, 'directory_tree'],
];

/** Answers a compiler request from the committed pack: its spec, reviewed code and test cases. */
async function answer(request: ModelRequest): Promise<unknown> {
  const text = request.messages[0]?.content ?? '';
  const step = request.step.replace(/@v\d+$/, '');
  const tool = toolOf(text);
  switch (step) {
    case 'map.create_policies':
    case 'map.split_merge':
      return { policies: policiesOf(tool).map(draft) };
    case 'map.add_policies':
      return { policies: [] };
    case 'map.review_relevance':
      return {
        votes: policiesOf(tool).map((_, index) => ({ index, relevant: true, reason: 'it names this tool' })),
      };
    case 'map.review_enforceability':
      return {
        reviews: policiesOf(tool).map((_, index) => ({
          index,
          enforceable: true,
          reason: 'decided from the paths in the arguments and the read-only lookups',
        })),
      };
    case 'map.create_examples':
      // The reviewed spec has every policy's examples: the follow-up for policies short of examples adds none.
      if (text.includes('have fewer than')) return { examples: [] };
      return {
        examples: policiesOf(tool).map((policy, index) => ({
          index,
          compliance_examples: policy.compliance_examples,
          violation_examples: policy.violation_examples,
        })),
      };
  }
  const module = /Write the module `([^`]+)`/.exec(text)?.[1];
  if (module !== undefined) return { code: await readFile(join(packDir, module), 'utf8') };
  const policy = /"id": "([^"]+)"/.exec(text)?.[1] ?? '';
  if (step === 'generate.lookups') {
    const code = await readFile(join(packDir, policyFile(tool, policy)), 'utf8');
    return {
      lookups: lookupNames.filter(([pattern]) => pattern.test(code)).map(([, lookup]) => lookup),
      reason: 'the lookups the reviewed check makes',
    };
  }
  if (step === 'generate.test_cases') {
    return reviewedCaseAnswers(text, packDir, tool, policy);
  }
  throw new Error(`no reviewed answer for step ${request.step}`);
}

const reviewed: LanguageModel = {
  id: 'scripted answers: the reviewed spec, guard code and test cases of packs/mcp-filesystem, written by people, not a model output',
  complete: async (request) => ({
    text: JSON.stringify(await answer(request)),
    usage: { inputTokens: 0, outputTokens: 0 },
  }),
};

const { values } = parseArgs({ options: { 'keep-tools': { type: 'boolean' } } });
if (values['keep-tools'] !== true) {
  // The server's tools, and the proxy's own lookup, which the guards call where the proxy runs beside the server.
  const listed = (await listFilesystemTools()) as { tools: unknown[] };
  await writeFile(toolsListFile, `${JSON.stringify({ ...listed, tools: [...listed.tools, realPathTool] }, null, 2)}\n`);
}
const out = await mkdtemp(join(tmpdir(), 'mcp-filesystem-record-'));
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
