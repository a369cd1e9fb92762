import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AgentGuardError } from '../errors.ts';
import type { Manifest } from '../pack/manifest.ts';
import type { ToolPolicySpec } from '../pack/policy-spec.ts';
import type { TestCase } from '../pack/test-case.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { domainHelpers } from './domain-helpers.ts';
import { argsTypeName, domainTypes } from './domain-types.ts';
import { caseRunnerSource, guardIndexSource, policyFile } from './pack-layout.ts';

/** The id of the placeholder policy `initPack` writes for a tool, e.g. `send_email.todo`. */
export const placeholderPolicy = (tool: string) => `${tool.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}.todo`;

/** The sentence of the policy stub that every placeholder policy quotes. */
const placeholderSentence = 'Every call of a tool that changes something is refused until its policy is written.';

type Schema = Record<string, unknown>;

/**
 * A value of a JSON Schema for an example: its `default`, first `examples` or `enum` entry, else a placeholder of its
 * type, with an object's required properties filled in.
 */
function exampleValue(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const node = schema as Schema;
  if ('default' in node) return node.default;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ('const' in node) return node.const;
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  if (type === 'string') return 'example';
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object' || typeof node.properties === 'object') return exampleArguments(node);
  const first = [node.anyOf, node.oneOf].find(Array.isArray)?.[0];
  return first === undefined ? null : exampleValue(first);
}

/** Example arguments of a tool: its required parameters, each with an example value. */
export function exampleArguments(parameters: Schema): Record<string, unknown> {
  const properties = (parameters.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(parameters.required) ? (parameters.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, exampleValue(properties[name])]));
}

/** The placeholder check of a tool: it refuses every call, so an unwritten policy fails closed. */
function placeholderCheck(tool: ToolSpec): string {
  const argsType = argsTypeName(tool.name);
  return [
    `/** \`${placeholderPolicy(tool.name)}\`: the policy of \`${tool.name}\`, not written yet. Written by agentguard init. */`,
    "import type { PolicyCheck } from 'agentguard';",
    `import type { ${argsType} } from '../../types.ts';`,
    '',
    '/**',
    ' * Return `{ message, facts? }` when the call breaks the policy, `undefined` when it complies. `context` holds the',
    ' * conversation before the call, `now`, and `invoker` for read-only lookups (typed: `lookup` in ../lib/domain.ts).',
    ' * Until the policy is written, every call is refused.',
    ' */',
    `export const check: PolicyCheck<${argsType}> = async (_args, _context) => {`,
    `  return { message: 'the policy of \`${tool.name}\` is not written yet' };`,
    '};',
    '',
  ].join('\n');
}

/** Writes a file, creating its folder. */
async function write(dir: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), content);
}

/**
 * Scaffolds a guard pack a person writes by hand, from tool specs: `tools.json`, `types.ts` generated from them
 * (`<Tool>Args`, `<Tool>Result`, `Lookups`), `guards/lib/` (typed `lookup`, `timeOf`, the confirmation reading), and
 * for every tool that changes something a spec, a guard and a test case file holding one placeholder policy,
 * `<tool>.todo`, whose check refuses every call until it is written; plus `policy.md` (the given document or a stub),
 * `manifest.json` and `tests/cases.test.ts`. The pack loads, type-checks and passes its tests as written. Refuses a
 * folder that is not empty.
 *
 * @example
 * ```ts
 * await initPack({ dir: 'packs/mail', domain: 'mail', tools: (await readToolSpecs('tools.json')).tools });
 * ```
 */
export async function initPack(options: {
  dir: string;
  domain: string;
  tools: readonly ToolSpec[];
  policyDocument?: string;
  timeZone?: string;
}): Promise<string[]> {
  const { dir, tools } = options;
  if (existsSync(dir) && (await readdir(dir)).length > 0) {
    throw new AgentGuardError('invalid_input', `\`${dir}\` is not empty: init writes a new pack into an empty folder`);
  }
  const files = new Map<string, string>();
  const guards: Manifest['guards'] = {};
  for (const tool of tools.filter((item) => !item.readOnly)) {
    const id = placeholderPolicy(tool.name);
    const spec: ToolPolicySpec = {
      tool: tool.name,
      policies: [
        {
          id,
          name: `Policy of ${tool.name}`,
          description: `Not written yet: what a call of \`${tool.name}\` must satisfy. Until then every call is refused.`,
          references: [placeholderSentence],
          compliance_examples: [],
          violation_examples: [`Any call of \`${tool.name}\`, while its policy is not written.`],
          remedy: `Do not call \`${tool.name}\`; tell the user it is not available yet.`,
        },
      ],
    };
    const cases: TestCase[] = [
      {
        tool: tool.name,
        policy: id,
        kind: 'violation',
        example: spec.policies[0]?.violation_examples[0] ?? '',
        arguments: exampleArguments(tool.parameters),
        conversation: [],
        lookups: [],
      },
    ];
    files.set(`spec/${tool.name}.json`, `${JSON.stringify(spec, null, 2)}\n`);
    files.set(policyFile(tool.name, id), placeholderCheck(tool));
    files.set(`guards/${tool.name}.ts`, guardIndexSource(tool.name, [id]));
    files.set(`tests/${tool.name}.cases.json`, `${JSON.stringify(cases, null, 2)}\n`);
    guards[tool.name] = {
      spec: `spec/${tool.name}.json`,
      guard: `guards/${tool.name}.ts`,
      policies: [{ id, state: 'enforced', effect: 'deny' }],
    };
  }
  const manifest: Manifest = {
    format: 1,
    domain: options.domain,
    description: `Guards of ${options.domain}, written by hand.`,
    policyDocument: 'policy.md',
    reviewed: false,
    tools: 'tools.json',
    guards,
    general: [],
  };
  files.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  files.set('tools.json', `${JSON.stringify(tools, null, 2)}\n`);
  files.set('types.ts', await domainTypes(tools));
  for (const [path, source] of domainHelpers(options.timeZone)) files.set(path, source);
  files.set('tests/cases.test.ts', caseRunnerSource);
  files.set(
    'policy.md',
    options.policyDocument ??
      `# ${options.domain} policy\n\nWrite the policy here, one rule per sentence: each policy of spec/ quotes the sentences it enforces.\n\n${placeholderSentence}\n`,
  );
  const written = [...files.keys()].sort();
  for (const path of written) await write(dir, path, files.get(path) ?? '');
  return written;
}
