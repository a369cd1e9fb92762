import { createRequire } from 'node:module';

/** The part of amaro (Node's own type stripper, as a package) that agentguard uses. */
interface Amaro {
  transformSync(source: string, options: { mode: 'strip-only' }): { code: string };
}

/** amaro, loaded on first use: most processes never strip a pack's types. */
let amaro: Amaro | undefined;

/**
 * The JavaScript of a TypeScript module of a guard pack, stripped as Node strips the types of a `.ts` file it runs:
 * type annotations and type-only imports become blanks, so lines and columns stay where they were, and everything
 * else stays as written. Syntax that is not erasable (an `enum`, a parameter property) throws, as it would in Node.
 *
 * @example
 * ```ts
 * const code = stripTypes('export const limit: number = 5;'); // 'export const limit         = 5;'
 * ```
 */
export function stripTypes(source: string): string {
  amaro ??= createRequire(import.meta.url)('amaro') as Amaro;
  return amaro.transformSync(source, { mode: 'strip-only' }).code;
}
