import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const main = join(root, 'src/cli/main.ts');

describe('agentguard review', () => {
  it('serves the page on loopback with the replay decisions until interrupted', async () => {
    const verdicts = join(await mkdtemp(join(tmpdir(), 'agentguard-cli-review-')), 'verdicts.jsonl');
    const line = {
      trajectory: '0-0',
      message_index: 3,
      call_index: 0,
      tool: 'get_user_details',
      arguments: { user_id: 'mia_li_3668' },
      verdict: 'allow',
      violations: [],
      duration_us: 5,
    };
    await writeFile(verdicts, `${JSON.stringify(line)}\n`);
    const child = spawn(process.execPath, [main, 'review', 'packs/tau-airline', '--replay', verdicts, '--no-open'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
          if (found !== undefined) resolve(found);
        });
        child.once('exit', () => reject(new Error(`exited before serving: ${out}`)));
      });
      const overview = (await (await fetch(`${url}api/pack`)).json()) as { domain: string; decisions: unknown };
      assert.equal(overview.domain, 'tau-airline');
      assert.deepEqual(overview.decisions, { source: 'verdicts.jsonl', calls: 1, denied: 0, asked: 0 });
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exited, 0);
  });

  it('names a bad port, runs without a replay, and a malformed replay file, and exits 1', async () => {
    const port = spawnSync(process.execPath, [main, 'review', 'packs/tau-airline', '--port', 'x', '--no-open'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(port.status, 1);
    assert.match(port.stderr, /--port: expected a port number from 0 to 65535, got `x`/);
    const verdicts = join(await mkdtemp(join(tmpdir(), 'agentguard-cli-review-')), 'verdicts.jsonl');
    await writeFile(verdicts, '{}\n');
    const replay = spawnSync(
      process.execPath,
      [main, 'review', 'packs/tau-airline', '--replay', verdicts, '--no-open'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    assert.equal(replay.status, 1);
    assert.match(replay.stderr, /line 1 \$\.trajectory: /);
    const runs = spawnSync(
      process.execPath,
      [main, 'review', 'packs/tau-airline', '--trajectories', 'data/tau-airline/trajectories-gpt-4o.json', '--no-open'],
      { cwd: root, encoding: 'utf8' },
    );
    assert.equal(runs.status, 1);
    assert.match(runs.stderr, /`--trajectories` names the runs of a replay: give it with `--replay <file>`/);
  });
});
