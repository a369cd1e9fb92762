import { lstat, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Where a path really points, as `agentguard_real_path` answers. */
export interface RealPath {
  /** The path with every link followed; for a path that does not exist, its deepest existing folder's, plus the rest. */
  realPath: string;
  exists: boolean;
  isDirectory: boolean;
  /** The names the file has (hard links); 0 for a path that does not exist. More than one: its name may deceive. */
  hardLinks: number;
}

/**
 * The proxy's own read-only lookup, answered from the proxy's view of the disk when it runs beside the upstream
 * (`GuardProxyOptions.sameDisk`): where a path really points once links are followed, as a filesystem server that
 * resolves links before acting (the reference filesystem server does) acts on it. Guard packs list it among their
 * tools to call it; through a proxy without that view it fails, and a guard falls back to what the upstream's own
 * tools tell.
 */
export const realPathTool = {
  name: 'agentguard_real_path',
  description:
    "Where a path on the filesystem server's disk really points, with symbolic links followed; answered by the agentguard proxy from its own view of the disk when it runs beside the server. A path that does not exist resolves through its deepest existing folder. hardLinks counts the names a file has.",
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'an absolute path, or one under `~`' } },
    required: ['path'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      realPath: { type: 'string' },
      exists: { type: 'boolean' },
      isDirectory: { type: 'boolean' },
      hardLinks: { type: 'integer' },
    },
    required: ['realPath', 'exists', 'isDirectory', 'hardLinks'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} satisfies Tool;

const missing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

async function follow(path: string): Promise<RealPath> {
  try {
    const realPath = await realpath(path);
    const stats = await stat(realPath);
    return { realPath, exists: true, isDirectory: stats.isDirectory(), hardLinks: stats.nlink };
  } catch (error) {
    if (!missing(error)) throw error;
    const link = await lstat(path).then(
      () => true,
      () => false,
    );
    if (link) throw new Error(`\`${path}\` is a symbolic link whose target does not exist`);
    const parent = dirname(path);
    if (parent === path) throw error;
    const above = await follow(parent);
    return { realPath: join(above.realPath, basename(path)), exists: false, isDirectory: false, hardLinks: 0 };
  }
}

/**
 * Where `path` really points on this machine's disk: `~` expanded, `.`/`..` and repeated or trailing separators
 * resolved, every link followed. Rejects a relative path and a link whose target does not exist.
 *
 * @example
 * ```ts
 * await realPathOf('/home/me/project/innocent.txt'); // { realPath: '/home/me/project/.env', exists: true, … }
 * ```
 */
export async function realPathOf(path: string): Promise<RealPath> {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  if (!isAbsolute(expanded)) throw new Error(`\`${path}\` is not an absolute path`);
  return follow(resolve(expanded));
}
