import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type ivm from 'isolated-vm';
import { stripTypes } from '../pack/strip-types.ts';
import { moduleUrl } from '../package-root.ts';
import { outcomeOf, type PolicyOutcome } from '../runtime/policy-check.ts';
import { loadIsolatedVm } from './isolated-vm.ts';
import type { Sandbox, SandboxRun } from './sandbox.ts';

const library = (path: string) => readFileSync(moduleUrl(import.meta.url, `../${path}`), 'utf8');

/** The parts of agentguard guard code may use at run time, loaded into each isolate; keyed without extension. */
const libraryFiles = new Map([
  ['/agentguard/model/conversation', library('model/conversation')],
  ['/agentguard/dialogue/affirmation', library('dialogue/affirmation')],
  ['/agentguard/dialogue/agreement', library('dialogue/agreement')],
  ['/agentguard/dialogue/canonical-text', library('dialogue/canonical-text')],
  ['/agentguard/dialogue/dates', library('dialogue/dates')],
  ['/agentguard/dialogue/facts', library('dialogue/facts')],
  ['/agentguard/dialogue/negation', library('dialogue/negation')],
  ['/agentguard/dialogue/phrases', library('dialogue/phrases')],
  ['/agentguard/dialogue/requested', library('dialogue/requested')],
  ['/agentguard/dialogue/terms', library('dialogue/terms')],
]);

const harness = `
import { Conversation } from '/agentguard/model/conversation.ts';
import { check } from 'entry';

function equal(left, right) {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => key in right && equal(left[key], right[key]));
}

export async function run(input) {
  const results = [];
  for (const item of JSON.parse(input)) {
    const invoker = {
      async invoke(tool, args) {
        const answer = item.lookups.find((lookup) => lookup.tool === tool && equal(lookup.arguments, args));
        if (answer === undefined) throw new Error('no answer for ' + tool + '(' + JSON.stringify(args) + ') in the test case');
        if (answer.error !== undefined) throw new Error(answer.error);
        return answer.result === undefined ? undefined : JSON.parse(JSON.stringify(answer.result));
      },
    };
    const context = { conversation: new Conversation(item.messages), invoker, now: new Date(item.now) };
    try {
      const value = await check(item.call.arguments, context, item.call);
      results.push({ value: value === undefined ? null : value });
    } catch (error) {
      results.push({ threw: String(error && error.message ? error.message : error) });
    }
  }
  return JSON.stringify(results);
}
`;

/**
 * Runs untrusted guard code in a V8 isolate (isolated-vm): no file, network, process or module access beyond the
 * pack's own sources and agentguard's conversation helpers, a memory limit, and a time limit that stops even a
 * synchronous endless loop. Each run gets a fresh isolate.
 *
 * @example
 * ```ts
 * const outcomes = await new IsolateSandbox().runChecks({ policy: 'a.b', files, entry: 'guards/a/b.ts', cases, timeoutMs: 1000 });
 * ```
 */
export class IsolateSandbox implements Sandbox {
  private readonly memoryMb: number;

  constructor(memoryMb = 64) {
    this.memoryMb = memoryMb;
  }

  async runChecks(run: SandboxRun): Promise<PolicyOutcome[]> {
    const fault = (message: string, kind: 'threw' | 'timeout' = 'threw'): PolicyOutcome[] =>
      run.cases.map(() => ({ policy: run.policy, fault: kind, message }));
    const isolate = new (await loadIsolatedVm()).Isolate({ memoryLimit: this.memoryMb });
    try {
      const context = await isolate.createContext();
      const paths = new Map<ivm.Module, string>();
      const cache = new Map<string, ivm.Module>();
      const compile = async (path: string, source: string) => {
        let module = cache.get(path);
        if (module === undefined) {
          const code = path.endsWith('.ts') ? stripTypes(source) : source;
          module = await isolate.compileModule(code, { filename: `file://${path}` });
          cache.set(path, module);
          paths.set(module, path);
        }
        return module;
      };
      const resolve = async (specifier: string, referrer: ivm.Module): Promise<ivm.Module> => {
        const from = paths.get(referrer) ?? '/';
        if (specifier === 'entry') return compile(`/pack/${run.entry}`, run.files.get(run.entry) ?? '');
        const target = specifier.startsWith('/agentguard/')
          ? specifier
          : specifier.startsWith('.')
            ? posix.join(posix.dirname(from), specifier)
            : undefined;
        const source =
          target === undefined
            ? undefined
            : target.startsWith('/agentguard/')
              ? libraryFiles.get(target.replace(/\.[jt]s$/, ''))
              : run.files.get(posix.relative('/pack', target));
        if (target === undefined || source === undefined) {
          throw new Error(`\`${specifier}\` cannot be imported: guard code may import only files of its own pack`);
        }
        return compile(target, source);
      };
      let runner: ivm.Reference<(input: string) => Promise<string>>;
      try {
        const main = await compile('/harness.js', harness);
        await main.instantiate(context, resolve);
        await main.evaluate({ timeout: run.timeoutMs });
        runner = await main.namespace.get('run', { reference: true });
      } catch (error) {
        return fault(`could not be loaded: ${(error as Error).message}`);
      }
      const input = JSON.stringify(run.cases);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'timeout'>((done) => {
        timer = setTimeout(done, run.timeoutMs, 'timeout');
      });
      try {
        const answer = await Promise.race([
          runner.apply(undefined, [input], { result: { promise: true, copy: true }, timeout: run.timeoutMs }),
          deadline,
        ]);
        if (answer === 'timeout') return fault(`took longer than ${run.timeoutMs} ms`, 'timeout');
        const results = JSON.parse(answer as string) as { value?: unknown; threw?: string }[];
        return results.map((result) =>
          result.threw !== undefined
            ? { policy: run.policy, fault: 'threw', message: `threw: ${result.threw}` }
            : outcomeOf(run.policy, result.value),
        );
      } catch (error) {
        const message = (error as Error).message;
        return /timed out/i.test(message)
          ? fault(`took longer than ${run.timeoutMs} ms`, 'timeout')
          : fault(`failed: ${message}`);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      if (!isolate.isDisposed) isolate.dispose();
    }
  }
}
