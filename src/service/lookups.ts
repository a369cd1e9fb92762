import type { ToolInvoker } from '../model/guard-context.ts';

/** Lookups for a surface that has none: every lookup fails, so guards that need one deny. */
export const noLookups: ToolInvoker = {
  invoke: (tool) => Promise.reject(new Error(`no lookups are available for \`${tool}\``)),
};

/**
 * Lookups answered by the agent's backend over HTTP: each is `POST <url>` with `{"tool", "arguments"}`. A 200 answer's
 * JSON body is the lookup's value; any other status fails the lookup, with the body's `error` field (or its text) as
 * the reason, as does a network error or an answer slower than `timeoutMs`. Guards treat a failed lookup as they treat
 * a refused one.
 *
 * @example
 * ```ts
 * const invoker = httpInvoker('http://127.0.0.1:8080/lookups', 1000);
 * await invoker.invoke('get_reservation_details', { reservation_id: 'ZFA04Y' });
 * ```
 */
export function httpInvoker(url: string, timeoutMs: number): ToolInvoker {
  return {
    async invoke(tool, args) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool, arguments: args }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (response.status !== 200) {
        let reason = text.slice(0, 500);
        try {
          const error = (JSON.parse(text) as { error?: unknown }).error;
          if (typeof error === 'string') reason = error;
        } catch {}
        throw new Error(`lookup \`${tool}\` failed (${url} answered ${response.status}): ${reason}`);
      }
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`lookup \`${tool}\`: ${url} answered 200 with a body that is not JSON`);
      }
    },
  };
}
