import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { AgentGuardError } from './errors.ts';
import { importOptional } from './optional-package.ts';

const peers = (
  JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
    peerDependencies: Record<string, string>;
  }
).peerDependencies;

describe('importOptional', () => {
  // Modules outside any project, so that Node finds none of the packages they import.
  let outside = '';
  const importing = async (name: string) => {
    const file = join(outside, `${name}.mjs`);
    await writeFile(file, `export * from '${name}';\n`);
    return () => import(pathToFileURL(file).href);
  };
  before(async () => {
    outside = await mkdtemp(join(tmpdir(), 'agentguard-optional-'));
  });
  after(async () => {
    await rm(outside, { recursive: true, force: true });
  });

  it('loads what is installed', async () => {
    const { default: Fastify } = await importOptional('the decision service', () => import('fastify'));
    assert.equal(typeof Fastify, 'function');
  });

  it('names the feature, the missing optional package and the command installing the version agentguard declares', async () => {
    const load = await importing('fastify');
    await assert.rejects(importOptional('the decision service', load), (error: unknown) => {
      assert.ok(AgentGuardError.isInstance(error));
      assert.equal(error.code, 'missing_package');
      assert.equal(
        error.message,
        `the decision service needs the package \`fastify\`: run \`npm install fastify@${peers.fastify}\``,
      );
      return true;
    });
  });

  it('names TypeScript, which is optional without being a peer dependency, at the version whose compiler API it uses', async () => {
    const load = await importing('typescript');
    await assert.rejects(importOptional('`agentguard review`', load), {
      code: 'missing_package',
      message: '`agentguard review` needs the package `typescript`: run `npm install typescript@5.9`',
    });
  });

  it('rethrows a missing package agentguard does not declare, and any other failure, as they are', async () => {
    const undeclared = await importing('left-pad');
    await assert.rejects(importOptional('a feature', undeclared), { code: 'ERR_MODULE_NOT_FOUND' });
    const broken = new Error('the module threw while loading');
    await assert.rejects(
      importOptional('a feature', () => Promise.reject(broken)),
      (error) => error === broken,
    );
  });
});
