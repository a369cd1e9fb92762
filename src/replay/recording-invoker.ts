import type { ToolInvoker } from '../model/guard-context.ts';

/** A lookup a guard made and what it returned (or the error it threw). */
export interface LookupRecord {
  tool: string;
  arguments: Record<string, unknown>;
  result?: unknown;
  error?: string;
}

/**
 * Wraps a lookup invoker so that every lookup is recorded with its answer; the same lookup made twice is recorded
 * once. `taken()` copies the records, so take them before the state changes: the copying is left out of the guards'
 * time.
 *
 * @example
 * ```ts
 * const { invoker, taken } = recordingInvoker(environment.invoker);
 * await runtime.check(call, { conversation, invoker, now });
 * const lookups = taken();
 * environment.run(call.name, call.arguments);
 * ```
 */
export function recordingInvoker(inner: ToolInvoker): { invoker: ToolInvoker; taken(): LookupRecord[] } {
  const lookups: LookupRecord[] = [];
  const seen = new Set<string>();
  const record = (tool: string, args: Record<string, unknown>, answer: { result: unknown } | { error: unknown }) => {
    const key = JSON.stringify([tool, args]);
    if (seen.has(key)) return;
    seen.add(key);
    lookups.push(
      'result' in answer
        ? { tool, arguments: args, result: answer.result }
        : { tool, arguments: args, error: String((answer.error as Error)?.message ?? answer.error) },
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
  return { invoker, taken: () => structuredClone(lookups) };
}
