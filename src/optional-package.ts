import { readFileSync } from 'node:fs';
import { AgentGuardError } from './errors.ts';
import { packagePath } from './package-root.ts';

/** agentguard's optional peer dependencies by name, with the versions it works with; read on first need. */
let optionalPackages: ReadonlyMap<string, string> | undefined;

function optionalVersion(name: string): string | undefined {
  if (optionalPackages === undefined) {
    const manifest = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    optionalPackages = new Map(
      Object.entries(manifest.peerDependencies ?? {}).filter(
        ([peer]) => manifest.peerDependenciesMeta?.[peer]?.optional === true,
      ),
    );
  }
  return optionalPackages.get(name);
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
 * optional peer dependencies. When one of those is not installed, this throws an `AgentGuardError` (code
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
    const version = name === undefined ? undefined : optionalVersion(name);
    if (name === undefined || version === undefined) throw error;
    throw new AgentGuardError(
      'missing_package',
      `${feature} needs the package \`${name}\`: run \`npm install ${name}@${version}\``,
      { cause: error },
    );
  }
}
