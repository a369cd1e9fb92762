import { readFileSync } from 'node:fs';
import { AgentGuardError } from './errors.ts';
import { packagePath } from './package-root.ts';

/**
 * TypeScript is optional, but no peer dependency: agentguard uses the compiler API of TypeScript 5.9 (7, the native
 * port, has none), while most projects carry a TypeScript of their own, often 7 or an older 5, beside which npm would
 * refuse to install agentguard at all were it a peer of another range.
 */
const typescriptVersion = '5.9';

/** agentguard's optional packages by name, with the versions it works with; read on first need. */
let optionalPackages: ReadonlyMap<string, string> | undefined;

function optionalVersion(name: string): string | undefined {
  if (optionalPackages === undefined) {
    const manifest = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    optionalPackages = new Map([
      ...Object.entries(manifest.peerDependencies ?? {}).filter(
        ([peer]) => manifest.peerDependenciesMeta?.[peer]?.optional === true,
      ),
      ['typescript', typescriptVersion],
    ]);
  }
  return optionalPackages.get(name);
}

/**
 * The command that installs an optional package at the version agentguard works with; undefined for a package that
 * is not one.
 *
 * @example
 * ```ts
 * installCommand('typescript'); // 'npm install typescript@5.9'
 * ```
 */
export function installCommand(name: string): string | undefined {
  const version = optionalVersion(name);
  return version === undefined ? undefined : `npm install ${name}@${version}`;
}

/** The package a failed import could not find, when that is why it failed (a bare name, not a file). */
function missingPackage(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined;
  return /^Cannot find package '([^']+)'/.exec(message)?.[1];
}

/**
 * Loads the modules a feature needs, and so the optional packages they import, only when the feature is used. Only
 * what deciding needs is a dependency of agentguard; the compiler, guard agent, sandbox, service and MCP proxy use
 * optional peer dependencies, and TypeScript. When one of those is not installed, this throws an `AgentGuardError` (code
 * `missing_package`) that names the feature, the package and the command installing the version agentguard works
 * with; any other failure is rethrown as it is.
 *
 * @example
 * ```ts
 * const { default: Fastify } = await importOptional('the decision service', () => import('fastify'));
 * // without fastify: "the decision service needs the package `fastify`: run `npm install fastify@^5.12.8`"
 * ```
 */
export async function importOptional<Module>(feature: string, load: () => Promise<Module>): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    const name = missingPackage(error);
    const install = name === undefined ? undefined : installCommand(name);
    if (install === undefined) throw error;
    throw new AgentGuardError('missing_package', `${feature} needs the package \`${name}\`: run \`${install}\``, {
      cause: error,
    });
  }
}
