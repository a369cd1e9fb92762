/**
 * The build of the tau-airline pack through the generator: its inputs, read from the committed pack (tools, specs,
 * policy document, helpers, clock and the reviewed manifest fields), and the recording that answers the model steps.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GenerateOptions, generatePack } from '../src/compiler/generate-pack.ts';
import { GuardTypeChecker } from '../src/compiler/type-checker.ts';
import { Budget } from '../src/llm/budget.ts';
import type { LanguageModel } from '../src/llm/language-model.ts';
import { manifestSchema } from '../src/pack/manifest.ts';
import { readSpecDirectory } from '../src/pack/spec-directory.ts';
import { toolSpecSchema } from '../src/pack/tool-spec.ts';
import { IsolateSandbox } from '../src/sandbox/isolate-sandbox.ts';

/** The committed pack. */
export const packDir = fileURLToPath(new URL('../packs/tau-airline/', import.meta.url));
/** The recording whose answers are the pack's reviewed code and test cases. */
export const recordingFile = fileURLToPath(new URL('../packs/tau-airline.recording.json', import.meta.url));

/** Builds the pack into `out` with `model` answering the generator's steps. */
export async function buildTauAirline(
  out: string,
  model: LanguageModel,
  options: { maxRepairs?: number; onProgress?: GenerateOptions['onProgress'] } = {},
) {
  const manifest = manifestSchema.parse(JSON.parse(await readFile(join(packDir, 'manifest.json'), 'utf8')));
  const tools = toolSpecSchema.array().parse(JSON.parse(await readFile(join(packDir, 'tools.json'), 'utf8')));
  const archived = new Map<string, string>();
  for (const entry of Object.values(manifest.guards)) {
    for (const policy of entry.policies) if (policy.state === 'archived') archived.set(policy.id, policy.reason);
  }
  const helpers = new Map<string, string>();
  for (const name of (await readdir(join(packDir, 'guards', 'lib'))).sort()) {
    helpers.set(`guards/lib/${name}`, await readFile(join(packDir, 'guards', 'lib', name), 'utf8'));
  }
  return generatePack({
    out,
    domain: manifest.domain,
    description: manifest.description,
    policyDocument: await readFile(join(packDir, manifest.policyDocument), 'utf8'),
    ...(manifest.clock === undefined ? {} : { clock: manifest.clock }),
    tools,
    specs: await readSpecDirectory(join(packDir, 'spec')),
    archived,
    helpers,
    reviewed: true,
    general: manifest.general,
    model,
    budget: new Budget({ maxCalls: 2000, maxTokens: 1e12 }),
    sandbox: new IsolateSandbox(),
    typeChecker: new GuardTypeChecker(),
    maxRepairs: options.maxRepairs ?? 0,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
}
