import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const frameworks = /\/node_modules\/(ai|@ai-sdk\/[^/]+|@openai\/[^/]+|langchain|@langchain\/[^/]+)\//;

/** The node_modules files a fresh process resolves while importing `specifier`. */
function resolvedWhileImporting(specifier: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); seen.push(result.url); return result; } });
    await import(${JSON.stringify(specifier)});
    console.log(JSON.stringify(seen));
  `;
  const result = spawnSync(process.execPath, ['--conditions=agentguard-source', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  return (JSON.parse(result.stdout) as string[]).filter((url) => url.includes('/node_modules/'));
}

it('importing agentguard or agentguard/testing loads no agent framework', () => {
  for (const entry of ['agentguard', 'agentguard/testing']) {
    const loaded = resolvedWhileImporting(entry).filter((url) => frameworks.test(url));
    assert.deepEqual(loaded, [], `${entry} loads ${loaded.join(', ')}`);
  }
});

it('importing agentguard, agentguard/ai-sdk, agentguard/service or agentguard/testing loads no optional package', () => {
  const { peerDependencies } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
  const optional = new Set(Object.keys(peerDependencies));
  for (const entry of ['agentguard', 'agentguard/ai-sdk', 'agentguard/service', 'agentguard/testing']) {
    const loaded = resolvedWhileImporting(entry).filter((url) =>
      optional.has(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? ''),
    );
    assert.deepEqual(loaded, [], `${entry} loads ${loaded.join(', ')}`);
  }
});

it('each adapter is its own entry point of the package', async () => {
  assert.equal(typeof (await import('agentguard/ai-sdk')).guardTools, 'function');
  assert.equal(typeof (await import('agentguard/openai-agents')).guardAgentTools, 'function');
  assert.equal(typeof (await import('agentguard/langchain')).guardMiddleware, 'function');
});
