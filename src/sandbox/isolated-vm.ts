import type ivm from 'isolated-vm';
import { importOptional } from '../optional-package.ts';

/**
 * isolated-vm, loaded when code first runs in an isolate: it is an optional package, which only the compiler and the
 * guard agent need.
 *
 * @example
 * ```ts
 * const isolate = new (await loadIsolatedVm()).Isolate({ memoryLimit: 32 });
 * ```
 */
export async function loadIsolatedVm(): Promise<typeof ivm> {
  return (await importOptional('running code in an isolate', () => import('isolated-vm'))).default;
}
