import type { ToolInvoker } from '../model/guard-context.ts';

/** A lookup a guard made and what it returned (or the error it threw). */
export interface LookupRecord {
  tool: string;
  arguments: Record<string, unknown>;
  result?: unknown;
  error?: string;
}

/**
 * Wraps a lookup invoker so that every lookup is recorded with a copy of its answer, taken when it was given (the
 * state may change after). The same lookup made twice is recorded once.
 *
 * @example
 * ```ts
 * const { invoker, lookups } = recordingInvoker(environment.invoker);
 * await runtime.check(call, { conversation, invoker, now });
 * console.log(lookups);
 * ```
 */
export function recordingInvoker(inner: ToolInvoker): { invoker: ToolInvoker; lookups: LookupRecord[] } {
  const lookups: LookupRecord[] = [];
  const seen = new Set<string>();
  const record = (tool: string, args: Record<string, unknown>, answer: { result: unknown } | { error: unknown }) => {
    const key = JSON.stringify([tool, args]);
    if (seen.has(key)) return;
    seen.add(key);
    lookups.push(
      'result' in answer
        ? { tool, arguments: structuredClone(args), result: structuredClone(answer.result) }
        : { tool, arguments: structuredClone(args), error: String((answer.error as Error)?.message ?? answer.error) },
    );
  };
  const invoker: ToolInvoker = {
    async invoke(tool, args) {
      try {
        const result = await inner.invoke(tool, args);
        record(tool, args, { result });
        return result;
      } catch (error) {
        record(tool, args, { error });
        throw error;
      }
    },
  };
  const now = inner.invokeNow?.bind(inner);
  if (now !== undefined) {
    invoker.invokeNow = (tool, args) => {
      try {
        const result = now(tool, args);
        record(tool, args, { result });
        return result;
      } catch (error) {
        record(tool, args, { error });
        throw error;
      }
    };
  }
  return { invoker, lookups };
}
