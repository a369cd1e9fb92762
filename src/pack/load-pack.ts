import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { InputError, type InputIssue } from '../errors.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import type { GuardModule, PolicyCheck } from '../runtime/policy-check.ts';
import { type Manifest, manifestSchema, type PolicyEntry } from './manifest.ts';
import {
  fromToolGuardSpec,
  type PolicySpec,
  type ToolPolicySpec,
  toolGuardSpecSchema,
  toolPolicySpecSchema,
} from './policy-spec.ts';
import { type ReviewChange, reviewChanges } from './review-hashes.ts';
import { type ToolSpec, toolSpecSchema } from './tool-spec.ts';
import { loadTypeScriptFrom } from './typescript-loader.ts';

/**
 * A policy's manifest entry once loaded: an enforced policy's effect is settled, the manifest's when it gives one,
 * else the spec's, else `deny`.
 */
export type LoadedPolicyEntry =
  | Exclude<PolicyEntry, { state: 'enforced' }>
  | (Extract<PolicyEntry, { state: 'enforced' }> & { effect: 'deny' | 'ask' });

/** A policy of a loaded pack: its spec, its state in the manifest, and its check when the guard code has one. */
export interface LoadedPolicy {
  spec: PolicySpec;
  entry: LoadedPolicyEntry;
  check: PolicyCheck<never> | undefined;
  /** Why `check` is missing, for enforced policies. */
  missingReason?: string;
}

/** A tool of a loaded pack. */
export interface LoadedTool {
  spec: ToolSpec;
  /** Problems with a call's arguments against the tool's schema; empty when they are valid. */
  validate(args: Record<string, unknown>): string[];
  /** Absolute path of the guard module, when the tool has one. */
  guardFile: string | undefined;
  policies: readonly LoadedPolicy[];
}

/**
 * A guard pack loaded from its folder: manifest, tool specs, tool-policy specs, guard code and policy document.
 */
export interface GuardPack {
  dir: string;
  manifest: Manifest;
  policyDocument: string;
  tools: ReadonlyMap<string, LoadedTool>;
  specs: ReadonlyMap<string, ToolPolicySpec>;
  /** What changed since the recorded approval; when not empty the pack loads as unreviewed (`manifest.reviewed`). */
  changedSinceReview?: readonly ReviewChange[];
}

async function readJson(file: string, label: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(
      label,
      [{ location: '$', message: `cannot read: ${(error as Error).message}` }],
      'invalid_pack',
    );
  }
  try {
    return parseJsonText(text, label);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(label, error.issues, 'invalid_pack');
    throw error;
  }
}

function compileValidator(ajv: Ajv, spec: ToolSpec, label: string): (args: Record<string, unknown>) => string[] {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile({ additionalProperties: false, ...spec.parameters });
  } catch (error) {
    throw new InputError(label, [{ location: `$.parameters`, message: (error as Error).message }], 'invalid_pack');
  }
  return (args) => {
    if (validate(args)) return [];
    return (validate.errors ?? []).map((error) => {
      const where = error.instancePath === '' ? 'arguments' : `arguments${error.instancePath.replaceAll('/', '.')}`;
      const extra = error.params.additionalProperty;
      return extra === undefined ? `${where} ${error.message ?? 'invalid'}` : `unknown argument \`${String(extra)}\``;
    });
  };
}

/** Reads a tool-policy spec in our schema, or in ToolGuard's (recognised by its `policy_name` fields). */
export function readPolicySpec(tool: string, value: unknown, label: string): ToolPolicySpec {
  const policies = (value as { policies?: unknown } | null)?.policies;
  const isToolGuard =
    Array.isArray(policies) &&
    policies.some((policy) => typeof policy === 'object' && policy !== null && 'policy_name' in policy);
  if (isToolGuard)
    return fromToolGuardSpec(tool, parseInput(toolGuardSpecSchema, value, label, { code: 'invalid_pack' })).spec;
  return parseInput(toolPolicySpecSchema, value, label, { code: 'invalid_pack' });
}

async function importGuard(file: string): Promise<{ module?: GuardModule; error?: string }> {
  try {
    const module = (await import(pathToFileURL(file).href)) as Partial<GuardModule>;
    if (typeof module.checks !== 'object' || module.checks === null) return { error: 'exports no `checks` record' };
    return { module: module as GuardModule };
  } catch (error) {
    return { error: `cannot be loaded: ${(error as Error).message}` };
  }
}

/**
 * Loads a guard pack. Malformed files throw an `InputError` listing every problem with its file and JSON path. A guard
 * module that fails to load does not throw: its enforced policies keep no check, so the runtime denies their calls
 * and names the fault. A pack whose manifest records an approval loads as unreviewed once a file or policy state the
 * approval covered has changed (`changedSinceReview` lists them). Guard modules are imported only for reviewed packs (`importGuards: false` skips it; the worker
 * executor imports them where they run).
 *
 * @example
 * ```ts
 * const pack = await loadPack('packs/tau-airline');
 * ```
 */
export async function loadPack(dir: string, options: { importGuards?: boolean } = {}): Promise<GuardPack> {
  const root = resolve(dir);
  const manifestLabel = join(dir, 'manifest.json');
  const declared = parseInput(
    manifestSchema,
    await readJson(join(root, 'manifest.json'), manifestLabel),
    manifestLabel,
    {
      code: 'invalid_pack',
    },
  );
  const changedSinceReview = declared.reviewed ? await reviewChanges(root, declared) : [];
  const manifest = changedSinceReview.length > 0 ? { ...declared, reviewed: false } : declared;
  const toolsLabel = join(dir, manifest.tools);
  const toolSpecs = parseInput(
    z.array(toolSpecSchema),
    await readJson(join(root, manifest.tools), toolsLabel),
    toolsLabel,
    {
      code: 'invalid_pack',
    },
  );
  let policyDocument: string;
  try {
    policyDocument = await readFile(join(root, manifest.policyDocument), 'utf8');
  } catch (error) {
    throw new InputError(
      manifestLabel,
      [{ location: '$.policyDocument', message: (error as Error).message }],
      'invalid_pack',
    );
  }

  const issues: InputIssue[] = [];
  const ajv = new Ajv({ allErrors: true, strict: false });
  const byName = new Map(toolSpecs.map((spec) => [spec.name, spec]));
  const specs = new Map<string, ToolPolicySpec>();
  const tools = new Map<string, LoadedTool>();
  const importGuards = options.importGuards ?? manifest.reviewed;
  if (importGuards) loadTypeScriptFrom(root);

  for (const spec of toolSpecs) {
    const entry = manifest.guards[spec.name];
    const validate = compileValidator(ajv, spec, toolsLabel);
    if (entry === undefined) {
      tools.set(spec.name, { spec, validate, guardFile: undefined, policies: [] });
      continue;
    }
    let policySpec: ToolPolicySpec = { tool: spec.name, policies: [] };
    if (entry.spec !== undefined) {
      const specLabel = join(dir, entry.spec);
      policySpec = readPolicySpec(spec.name, await readJson(join(root, entry.spec), specLabel), specLabel);
      specs.set(spec.name, policySpec);
    }
    const guardFile = entry.guard === undefined ? undefined : join(root, entry.guard);
    const imported = guardFile !== undefined && importGuards ? await importGuard(guardFile) : {};
    const policies: LoadedPolicy[] = [];
    entry.policies.forEach((policyEntry, index) => {
      const policy = policySpec.policies.find((candidate) => candidate.id === policyEntry.id);
      if (policy === undefined) {
        issues.push({
          location: `$.guards.${spec.name}.policies[${index}]`,
          message: `policy \`${policyEntry.id}\` is not in the tool-policy spec`,
        });
        return;
      }
      const entry: LoadedPolicyEntry =
        policyEntry.state === 'enforced'
          ? { ...policyEntry, effect: policyEntry.effect ?? policy.effect ?? 'deny' }
          : policyEntry;
      const loaded: LoadedPolicy = { spec: policy, entry, check: imported.module?.checks[policy.id] };
      if (policyEntry.state === 'enforced' && loaded.check === undefined && importGuards) {
        loaded.missingReason =
          guardFile === undefined
            ? 'the tool has no guard file'
            : (imported.error ?? `the guard file exports no check for \`${policy.id}\``);
      }
      policies.push(loaded);
    });
    for (const policy of policySpec.policies) {
      if (!entry.policies.some((policyEntry) => policyEntry.id === policy.id)) {
        issues.push({ location: `$.guards.${spec.name}`, message: `policy \`${policy.id}\` of the spec has no state` });
      }
    }
    tools.set(spec.name, { spec, validate, guardFile, policies });
  }
  for (const name of Object.keys(manifest.guards)) {
    if (!byName.has(name))
      issues.push({ location: `$.guards.${name}`, message: `tool \`${name}\` is not in ${manifest.tools}` });
  }
  if (issues.length > 0) throw new InputError(manifestLabel, issues, 'invalid_pack');
  return {
    dir: root,
    manifest,
    policyDocument,
    tools,
    specs,
    ...(changedSinceReview.length > 0 ? { changedSinceReview } : {}),
  };
}
