import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A policy of a fixture pack: its id, state and the body of its check (JavaScript, receives `args` and `context`). */
export interface FixturePolicy {
  id: string;
  state?: 'enforced' | 'not_enforced' | 'archived';
  effect?: 'deny' | 'ask';
  /** Body of an async function of `(args, context)`; omit for a policy without a check. */
  body?: string;
}

/**
 * Writes a small guard pack to a fresh temporary folder, for tests of the loader and the runtime: tool `act` (write)
 * with the given policies, and lookup `look` (read-only). Returns the folder.
 *
 * @example
 * ```ts
 * const dir = await writeFixturePack({ policies: [{ id: 'act.limit', body: 'return args.n > 3 ? { message: "too many" } : undefined;' }] });
 * ```
 */
export async function writeFixturePack(options: {
  policies: FixturePolicy[];
  reviewed?: boolean;
  /** Replaces the generated guard module source. */
  guardSource?: string;
  /** Files to write or overwrite, by path relative to the pack. */
  files?: Record<string, string>;
}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentguard-pack-'));
  const policyText = 'Acts must be small. Look before you act.';
  const checks = options.policies
    .filter((policy) => policy.body !== undefined)
    .map((policy) => `  ${JSON.stringify(policy.id)}: async (args, context) => {\n    ${policy.body}\n  },`)
    .join('\n');
  const files: Record<string, string> = {
    'policy.md': policyText,
    'manifest.json': JSON.stringify({
      format: 1,
      domain: 'fixture',
      description: 'A pack for tests.',
      policyDocument: 'policy.md',
      reviewed: options.reviewed ?? true,
      tools: 'tools.json',
      guards: {
        act: {
          spec: 'spec/act.json',
          guard: 'guards/act.js',
          policies: options.policies.map((policy) =>
            policy.state === undefined || policy.state === 'enforced'
              ? { id: policy.id, state: 'enforced', effect: policy.effect ?? 'deny' }
              : { id: policy.id, state: policy.state, reason: 'for the test' },
          ),
        },
      },
      general: [],
    }),
    'tools.json': JSON.stringify([
      {
        name: 'act',
        description: 'Acts.',
        parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        readOnly: false,
      },
      { name: 'look', description: 'Looks.', parameters: { type: 'object', properties: {} }, readOnly: true },
    ]),
    'spec/act.json': JSON.stringify({
      tool: 'act',
      policies: options.policies.map((policy) => ({
        id: policy.id,
        name: `Policy ${policy.id}`,
        description: 'A test policy.',
        references: ['Acts must be small.'],
        compliance_examples: ['n is 1'],
        violation_examples: ['n is 9'],
        remedy: 'Act smaller.',
      })),
    }),
    'guards/act.js': options.guardSource ?? `export const checks = {\n${checks}\n};\n`,
    ...options.files,
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}
