/**
 * What the package tests share: running a command in a project, npm, the package packed as a user gets it, and the
 * versions of the agent frameworks it supports.
 */
import assert from 'node:assert/strict';
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = fileURLToPath(new URL('..', import.meta.url));

/** The repository's package.json. */
export const repoPackage = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/** The version range of a package the repository depends on, peer range first; `latest` for any other. */
export const versionOf = (name: string): string =>
  repoPackage.peerDependencies[name] ?? repoPackage.devDependencies[name] ?? repoPackage.dependencies[name] ?? 'latest';

/** Runs a command to its end in `cwd`, with this process's environment unless `env` is given. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env });
}

/** Runs npm in `cwd` and gives what it printed; fails the test when npm fails. */
export function npm(args: readonly string[], cwd: string): string {
  const result = run('npm', args, cwd);
  assert.equal(result.status, 0, `npm ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Packs the package into `folder` (`npm pack` builds `dist/` first) and gives the tarball's path. */
export function packTarball(folder: string): string {
  const name = npm(['pack', '--silent', '--pack-destination', folder], root).trim().split('\n').at(-1) ?? '';
  return join(folder, name);
}
