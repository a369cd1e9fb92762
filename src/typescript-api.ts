import ts from 'typescript';
import { AgentGuardError } from './errors.ts';
import { installCommand } from './optional-package.ts';

/**
 * Throws unless a loaded `typescript` module has the compiler API (`createProgram`, `transpileModule`, …) that the
 * compiler, the guard agent and the review page use: TypeScript 7, the native port, exports only its version.
 *
 * @example
 * ```ts
 * assertCompilerApi(await import('typescript'));
 * ```
 */
export function assertCompilerApi(module: { version: string; createProgram?: unknown }): void {
  if (typeof module.createProgram === 'function') return;
  throw new AgentGuardError(
    'missing_package',
    `the installed \`typescript\` ${module.version} has no compiler API, which agentguard uses: run \`${installCommand('typescript')}\``,
  );
}

assertCompilerApi(ts);

/**
 * The TypeScript compiler, for the modules that use its API: importing it from here rather than from `typescript`
 * fails with an error saying what to install where the installed TypeScript has no compiler API.
 */
export default ts;
