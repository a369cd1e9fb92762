import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { packDifferences } from '../../scripts/rebuild-tau-airline.ts';
import { mapScript, shopTools } from '../compiler/shop-fixture.ts';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../llm/fake-openai-server.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const main = join(root, 'src/cli/main.ts');
const work = await mkdtemp(join(tmpdir(), 'agentguard-compile-'));
const policy = join(work, 'policy.md');
const tools = join(work, 'tools.json');
await writeFile(
  policy,
  '# Shop policy\n\nRefunds cannot exceed the order total. Refund only what the user asked for.\n\n- Always be polite to customers.\n',
);
// The shop's tools as an OpenAI tools list, which has no read-only flag: the commands take `--read-only`.
await writeFile(
  tools,
  JSON.stringify(
    shopTools.map(({ name, description, parameters }) => ({
      type: 'function',
      function: { name, description, parameters },
    })),
  ),
);

/** Runs the CLI without blocking this process, which also serves the fake model. */
function runCli(args: readonly string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...args]);
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/** Answers like a model would, from the request: the mapper's script in order, then generic generator answers. */
function answerFor(system: string, prompt: string, mapAnswers: string[]): string {
  if (system.startsWith('You plan guard code')) return JSON.stringify({ lookups: ['get_order'], reason: 'the total' });
  if (system.startsWith('You write test cases')) {
    const block = /The examples, by index:\n```json\n([\s\S]*?)\n```/.exec(prompt)?.[1] ?? '[]';
    const examples = JSON.parse(block) as { index: number; kind: string }[];
    return JSON.stringify({
      cases: examples.map(({ index, kind }) => ({
        index,
        arguments: { order_id: 'A1', amount: kind === 'compliance' ? 10 : 60 },
        conversation: [],
        lookups: [{ tool: 'get_order', arguments: { order_id: 'A1' }, result: { total: 50 } }],
      })),
    });
  }
  if (system.startsWith('You write TypeScript guard code')) {
    return JSON.stringify({
      code: "import type { PolicyCheck } from 'agentguard';\nimport type { RefundOrderArgs } from '../../types.ts';\n\nexport const check: PolicyCheck<RefundOrderArgs> = async (args, context) => {\n  const order = (await context.invoker.invoke('get_order', { order_id: args.order_id })) as { total: number };\n  return args.amount > order.total ? { message: 'over the total' } : undefined;\n};\n",
    });
  }
  return mapAnswers.shift() ?? '';
}

describe('agentguard compile', () => {
  const mapAnswers = [...mapScript];
  let server: FakeOpenAIServer;
  let baseUrl = '';
  before(async () => {
    server = await startFakeOpenAIServer((messages) =>
      answerFor(messages[0]?.content ?? '', messages[1]?.content ?? '', mapAnswers),
    );
    baseUrl = server.baseUrl;
  });
  after(() => server.close());

  it('builds a pack against an OpenAI-compatible server, records it, and rebuilds it from the recording', async () => {
    const out = join(work, 'shop');
    const recording = join(work, 'shop.recording.json');
    const build = (dir: string) => [
      'compile',
      'build',
      '--policy',
      policy,
      '--tools',
      tools,
      '--out',
      dir,
      '--domain',
      'shop',
      '--read-only',
      'get_order',
      '--toolguard',
    ];
    const built = await runCli([
      ...build(out),
      '--model',
      'openai-compatible:m',
      '--base-url',
      baseUrl,
      '--record',
      recording,
    ]);
    assert.equal(built.status, 0, built.stderr);
    assert.match(built.stderr, /\[map\] refund_order: create policies/);
    assert.match(built.stderr, /\[generate\] refund_order refund_order\.refund_limit: enforced/);
    assert.match(built.stderr, /archived\s+refund_order\.politeness: it concerns what the agent writes/);
    assert.match(built.stderr, /map\.create_policies@v6\s+1 calls \(0 retried\), 5 tokens/);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    assert.deepEqual(
      manifest.guards.refund_order.policies.map((entry: { state: string }) => entry.state),
      ['enforced', 'enforced', 'archived', 'archived'],
    );

    const exported = JSON.parse(await readFile(join(out, 'toolguard', 'refund_order.json'), 'utf8'));
    assert.deepEqual(
      exported.policies.map((item: { skip?: boolean }) => item.skip ?? false),
      [false, false, true, true],
    );
    const scored = spawnSync(process.execPath, [main, 'eval', 'spec', '--predicted', out, '--gold', out, '--json'], {
      encoding: 'utf8',
    });
    assert.equal(scored.status, 0, scored.stderr);
    assert.equal(JSON.parse(scored.stdout).reference.f1, 1, 'the folder compile build wrote scores as a spec');
    const again = join(work, 'shop-again');
    const replayed = await runCli([...build(again), '--replay', recording]);
    assert.equal(replayed.status, 0, replayed.stderr);
    assert.deepEqual(await packDifferences(out, again), []);

    // What `compile map` writes scores as it is, archived policies left out.
    const mapped = join(work, 'shop-map');
    const mapOnly = await runCli([
      'compile',
      'map',
      '--policy',
      policy,
      '--tools',
      tools,
      '--out',
      mapped,
      '--read-only',
      'get_order',
      '--replay',
      recording,
    ]);
    assert.equal(mapOnly.status, 0, mapOnly.stderr);
    const gold = join(work, 'shop-gold');
    await mkdir(gold, { recursive: true });
    await writeFile(join(gold, 'refund_order.json'), await readFile(join(mapped, 'spec', 'refund_order.json'), 'utf8'));
    const scores = spawnSync(
      process.execPath,
      [main, 'eval', 'spec', '--predicted', mapped, '--gold', gold, '--json'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(scores.status, 0, scores.stderr);
    assert.deepEqual(JSON.parse(scores.stdout).per_tool.refund_order.reference.predicted, 2);
  });
  it('refuses guard code the runtime would not load (an enum) while testing it, naming the policy and why', async () => {
    // The isolate strips types as Node does, so a helper's enum fails the tests instead of the written pack's load.
    const helpers = join(work, 'enum-helpers');
    await mkdir(helpers, { recursive: true });
    await writeFile(join(helpers, 'limits.ts'), 'export enum Limit {\n  Refund = 50,\n}\n');
    const code =
      "import type { PolicyCheck } from 'agentguard';\nimport type { RefundOrderArgs } from '../../types.ts';\nimport { Limit } from '../lib/limits.ts';\n\nexport const check: PolicyCheck<RefundOrderArgs> = (args) =>\n  args.amount > Limit.Refund ? { message: 'over the limit' } : undefined;\n";
    const answers = [...mapScript];
    const enumServer = await startFakeOpenAIServer((messages) => {
      const system = messages[0]?.content ?? '';
      if (system.startsWith('You write TypeScript guard code')) return JSON.stringify({ code });
      return answerFor(system, messages[1]?.content ?? '', answers);
    });
    try {
      const built = await runCli([
        'compile',
        'build',
        '--policy',
        policy,
        '--tools',
        tools,
        '--out',
        join(work, 'enum'),
        '--domain',
        'shop',
        '--read-only',
        'get_order',
        '--helpers',
        helpers,
        '--model',
        'openai-compatible:m',
        '--base-url',
        enumServer.baseUrl,
      ]);
      assert.equal(built.status, 3, built.stderr);
      assert.match(built.stderr, /\[generate\] refund_order refund_order\.refund_limit: not_enforced/);
      assert.match(
        built.stderr,
        /not_enforced +refund_order\.refund_limit .*could not be loaded: TypeScript enum is not supported/,
      );
    } finally {
      await enumServer.close();
    }
  });

  it('saves the last answer of a step that never gets a valid one, and exits 1', async () => {
    const broken = await startFakeOpenAIServer(() => 'I cannot answer in JSON.');
    try {
      const url = broken.baseUrl;
      const out = join(work, 'failing');
      const result = await runCli([
        'compile',
        'map',
        '--policy',
        policy,
        '--tools',
        tools,
        '--out',
        out,
        '--model',
        'openai-compatible:m',
        '--base-url',
        url,
      ]);
      assert.equal(result.status, 1);
      assert.match(result.stderr, /step `map\.create_policies@v6` got no valid answer/);
      assert.equal(
        await readFile(join(out, '.build', 'failed', 'map.create_policies@v6.txt'), 'utf8'),
        'I cannot answer in JSON.',
      );
      assert.match(result.stderr, /map\.create_policies@v6\s+3 calls \(2 retried\)/);
    } finally {
      await broken.close();
    }
  });
  it('says what is missing when no model is given, and exits 1', () => {
    const result = spawnSync(
      process.execPath,
      [main, 'compile', 'map', '--policy', policy, '--tools', tools, '--out', join(work, 'none')],
      {
        encoding: 'utf8',
        env: { ...process.env, AGENTGUARD_MODEL: '' },
      },
    );
    assert.equal(result.status, 1);
    assert.match(result.stderr, /no model: pass --model/);
    assert.equal(existsSync(join(work, 'none', 'spec')), false);
  });
  it('refuses --validate for a domain whose tools it cannot run, before asking any model', () => {
    const result = spawnSync(
      process.execPath,
      [
        main,
        'compile',
        'generate',
        '--spec',
        join(work, 'shop'),
        '--out',
        join(work, 'validated'),
        '--domain',
        'shop',
        '--validate',
        tools,
        '--replay',
        join(work, 'shop.recording.json'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /--validate replays calls against the tools of the domain, and there is none for `shop`/,
    );
    assert.match(result.stderr, /total\s+0 calls/);
  });
  it('rejects an empty policy document', async () => {
    const empty = join(work, 'empty.md');
    await writeFile(empty, '\n');
    const result = spawnSync(
      process.execPath,
      [
        main,
        'compile',
        'map',
        '--policy',
        empty,
        '--tools',
        tools,
        '--out',
        join(work, 'x'),
        '--replay',
        join(work, 'shop.recording.json'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(result.status, 1);
    assert.match(result.stderr, /is empty/);
  });
});
