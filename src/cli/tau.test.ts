import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFile, copyFile, cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startFakeOpenAIServer } from '../llm/fake-openai-server.ts';
import { readTrajectories } from '../replay/trajectories.ts';
import { stopToken } from '../tau/user-simulator.ts';
import { tauCommand } from './tau-command.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** A copy of the airline pack that differs from it in one byte of its policy document: another pack, same verdicts. */
async function copiedPack(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentguard-tau-pack-'));
  await cp(join(root, 'packs/tau-airline'), dir, { recursive: true });
  await appendFile(join(dir, 'policy.md'), '\n');
  return dir;
}

describe('agentguard tau', () => {
  it('runs both arms against a model server, writes runs that replay reads, and resumes', async () => {
    // The user asks once and stops; the agent only ever answers in words.
    const server = await startFakeOpenAIServer((messages) => {
      const system = messages[0]?.content ?? '';
      if (!system.startsWith('You are a user interacting with an agent.'))
        return 'I am sorry, I cannot help with that.';
      return messages.length <= 2 ? 'Hi, I would like to cancel a reservation.' : stopToken;
    });
    try {
      const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-cli-'));
      const args = [
        join(root, 'src/cli/main.ts'),
        'tau',
        '--domain',
        'airline',
        '--pack',
        join(root, 'packs/tau-airline'),
        '--agent-model',
        'openai-compatible:agent',
        '--user-model',
        'openai-compatible:user',
        '--agent-base-url',
        server.baseUrl,
        '--user-base-url',
        server.baseUrl,
        '--tasks',
        '0-1',
        '--out',
        out,
      ];
      const { stdout } = await run(process.execPath, args, { cwd: root });
      assert.match(stdout, /tau-bench airline: 2 tasks x 1 trials/);
      assert.match(stdout, /\s+guarded\s+unguarded\n/);
      assert.match(stdout, /average reward\s+0\s+0/);
      assert.match(stdout, /guarded\s+agent openai-compatible:agent: 2 calls, 6 input and 4 output tokens/);
      const guarded = JSON.parse(await readFile(join(out, 'guarded.json'), 'utf8')) as { task_id: number }[];
      assert.deepEqual(
        guarded.map((entry) => entry.task_id),
        [0, 1],
      );
      const replayed = await readTrajectories(join(out, 'unguarded.json'));
      assert.deepEqual(
        replayed.map((trajectory) => trajectory.id),
        ['0-0', '1-0'],
      );
      // Resumed with more trials: only the new ones run.
      const { stdout: resumed } = await run(process.execPath, [...args, '--trials', '2', '--json'], { cwd: root });
      const summaries = JSON.parse(resumed) as {
        arm: string;
        runs: number;
        usage: Record<string, { calls: number }>;
      }[];
      assert.deepEqual(
        summaries.map((summary) => [summary.arm, summary.runs]),
        [
          ['guarded', 4],
          ['unguarded', 4],
        ],
      );
      // Guarded runs are not decided again: their agent saw the pack.
      const other = await copiedPack();
      const refused = run(process.execPath, [...args, '--trials', '2', '--arms', 'guarded', '--pack', other], {
        cwd: root,
      });
      await assert.rejects(refused, (error: { stderr: string }) => {
        assert.match(error.stderr, /made with pack `\S+tau-airline` \(sha256 [0-9a-f]{12}\), not `\S+` \(sha256/);
        return true;
      });
    } finally {
      await server.close();
    }
  });

  it('decides the stored unguarded runs again with another pack, reads runs recorded without one, runs nothing', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-cli-'));
    for (const arm of ['guarded', 'unguarded'])
      await copyFile(join(root, `data/tau-airline/in-the-loop/${arm}.json`), join(out, `${arm}.json`));
    const pack = await copiedPack();
    const { stdout } = await run(
      process.execPath,
      [
        join(root, 'src/cli/main.ts'),
        ...['tau', '--domain', 'airline', '--pack', pack, '--tasks', '0-9', '--out', out, '--json'],
        // No model is asked: every run is in the files.
        ...['--agent-model', 'exchange:absent', '--user-model', 'exchange:absent'],
      ],
      { cwd: root },
    );
    const [guarded, unguarded] = JSON.parse(stdout) as {
      arm: string;
      runs: number;
      writeCalls: number;
      writeCallsNotAllowed: number;
      guardTime: { calls: number; medianUs: number; totalUs: number };
      decidedBy: string[];
    }[];
    // The guarded runs, recorded before the pack was, are kept as they are: no guard time, no pack.
    assert.deepEqual(
      [guarded?.arm, guarded?.runs, guarded?.guardTime.calls, guarded?.decidedBy],
      ['guarded', 10, 0, []],
    );
    assert.deepEqual(
      [unguarded?.runs, unguarded?.writeCalls, unguarded?.writeCallsNotAllowed, unguarded?.guardTime.calls],
      [10, 23, 6, 23],
    );
    assert.ok((unguarded?.guardTime.medianUs ?? 0) > 0);
    assert.match(unguarded?.decidedBy.join() ?? '', /^\S+ \(sha256 [0-9a-f]{12}\), decided again$/);
  });

  it('refuses a pack of another domain, a guarded arm without a pack, and tasks it does not have', async () => {
    const base = { agentModel: 'openai:x', userModel: 'openai:x', tasks: 'all', trials: '1', out: tmpdir() };
    const more = { ask: 'user' as const, maxSteps: '30', temperature: '0', concurrency: '1' };
    await assert.rejects(
      tauCommand({ ...base, ...more, domain: 'retail', pack: join(root, 'packs/tau-airline') }),
      /guards domain `tau-airline`, not `tau-retail`/,
    );
    await assert.rejects(
      tauCommand({ ...base, ...more, domain: 'retail', arms: 'guarded' }),
      /the guarded arm needs `--pack`/,
    );
    await assert.rejects(
      tauCommand({ ...base, ...more, domain: 'retail', tasks: '3-200' }),
      /`--tasks`: `3-200` is not a task index or range of 0-114/,
    );
  });
});
