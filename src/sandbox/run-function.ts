import type ivm from 'isolated-vm';
import type ts from 'typescript';
import { importOptional } from '../optional-package.ts';
import { loadIsolatedVm } from './isolated-vm.ts';

/** The result of running untrusted code: its value (as JSON came back), or why it failed. */
export type IsolatedResult = { ok: true; value: unknown } | { ok: false; error: string; timedOut: boolean };

/** What to run: a script that defines `entry`, its arguments, and the host functions it may call. */
export interface IsolatedCall {
  /** TypeScript or JavaScript defining a function named `entry`; types are stripped. No imports. */
  source: string;
  entry: string;
  /** Arguments, passed as JSON copies. */
  args: readonly unknown[];
  /** Host functions the code may call by name, JSON in and JSON out. */
  functions: Readonly<Record<string, (...args: unknown[]) => unknown>>;
  timeoutMs: number;
  memoryMb?: number;
}

const compiledSources = new Map<string, string>();

/** The TypeScript compiler, loaded on first use. */
let compiler: typeof ts | undefined;

/** The JavaScript of a source, types stripped; kept, so code run again (a program reused per task) compiles once. */
async function transpiled(source: string): Promise<string> {
  let body = compiledSources.get(source);
  if (body === undefined) {
    compiler ??= (await importOptional('running code in an isolate', () => import('../typescript-api.ts'))).default;
    body = compiler.transpileModule(source, {
      compilerOptions: { target: compiler.ScriptTarget.ES2022, module: compiler.ModuleKind.None },
    }).outputText;
    if (compiledSources.size >= 256) compiledSources.delete(compiledSources.keys().next().value as string);
    compiledSources.set(source, body);
  }
  return body;
}

/**
 * Runs an untrusted function in a fresh V8 isolate: it sees its arguments and the named host functions, each taking
 * and returning JSON copies (no reference to a host object ever reaches it), has no file, network, process or module
 * access, and is stopped at its time or memory limit. Never throws for a fault of the code.
 *
 * @example
 * ```ts
 * await runIsolated({ source: 'function guard(a) { return a + 1; }', entry: 'guard', args: [1], functions: {}, timeoutMs: 100 });
 * ```
 */
export async function runIsolated(call: IsolatedCall): Promise<IsolatedResult> {
  const isolatedVm = await loadIsolatedVm();
  const body = await transpiled(call.source);
  const isolate = new isolatedVm.Isolate({ memoryLimit: call.memoryMb ?? 32 });
  try {
    const context = await isolate.createContext();
    const jail = context.global;
    const names = Object.keys(call.functions);
    for (const name of names) {
      const host = call.functions[name] as (...args: unknown[]) => unknown;
      await jail.set(
        `__host_${name}`,
        new isolatedVm.Callback((input: string) => {
          try {
            return JSON.stringify({ value: host(...(JSON.parse(input) as unknown[])) ?? null });
          } catch (error) {
            return JSON.stringify({ error: (error as Error).message });
          }
        }),
      );
    }
    const wrappers = names
      .map(
        (name) =>
          `const ${name} = (...args) => { const answer = JSON.parse(__host_${name}(JSON.stringify(args))); if (answer.error !== undefined) throw new Error(answer.error); return answer.value; };`,
      )
      .join('\n');
    const script = `${wrappers}\n${body}\nglobalThis.__run = (input) => JSON.stringify(${call.entry}(...JSON.parse(input)) ?? null);`;
    try {
      await context.eval(script, { timeout: call.timeoutMs });
      const run = (await jail.get('__run', { reference: true })) as ivm.Reference<(input: string) => string>;
      const output = await run.apply(undefined, [JSON.stringify(call.args)], {
        timeout: call.timeoutMs,
        result: { copy: true },
      });
      return { ok: true, value: JSON.parse(output as string) };
    } catch (error) {
      const message = (error as Error).message;
      return { ok: false, error: message, timedOut: /timed out/i.test(message) };
    }
  } finally {
    if (!isolate.isDisposed) isolate.dispose();
  }
}
