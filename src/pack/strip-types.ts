import { createRequire } from 'node:module';
import type ts from 'typescript';

/** The TypeScript compiler, loaded on first use: it is large, and most processes never strip a pack's types. */
let compiler: typeof ts | undefined;

/**
 * The JavaScript of a TypeScript module of a guard pack, with the TypeScript compiler: type-only imports go,
 * everything else stays as written (erasable syntax needs no more).
 *
 * @example
 * ```ts
 * const code = stripTypes("export const limit: number = 5;"); // "export const limit = 5;\n"
 * ```
 */
export function stripTypes(source: string): string {
  compiler ??= createRequire(import.meta.url)('typescript') as typeof ts;
  const compilerOptions: ts.CompilerOptions = {
    module: compiler.ModuleKind.ESNext,
    target: compiler.ScriptTarget.ES2022,
    verbatimModuleSyntax: true,
    allowImportingTsExtensions: true,
  };
  return compiler.transpileModule(source, { compilerOptions }).outputText;
}
