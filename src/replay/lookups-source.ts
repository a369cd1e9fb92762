import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { InputError } from '../errors.ts';
import type { ToolInvoker } from '../model/guard-context.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import { httpInvoker } from '../service/lookups.ts';
import { environmentFor, type LookupsFactory } from './environment.ts';

/**
 * Schema of a lookup records file: a JSON list of `{"tool", "arguments", "result"}` (or `"error"` instead of
 * `"result"`, for a lookup that fails), the same shape as a test case's `lookups`. A lookup is answered by the record
 * of its tool whose arguments are deeply equal to the call's; a lookup no record answers fails.
 */
export const lookupRecordsSchema = z.array(
  z
    .object({
      tool: z.string().min(1),
      arguments: z.record(z.string(), z.unknown()),
      result: z.unknown().optional(),
      error: z.string().min(1).optional(),
    })
    .refine((record) => !('result' in record && record.error !== undefined), {
      message: 'a record has a `result` or an `error`, not both',
    }),
);

/** One record of a lookup records file. */
export type LookupRecord = z.output<typeof lookupRecordsSchema>[number];

/**
 * A lookup invoker answering from records (see `lookupRecordsSchema`), also at once (`invokeNow`).
 *
 * @example
 * ```ts
 * const invoker = recordsInvoker([{ tool: 'get_order', arguments: { id: 'A1' }, result: { status: 'shipped' } }]);
 * await invoker.invoke('get_order', { id: 'A1' }); // { status: 'shipped' }
 * ```
 */
export function recordsInvoker(records: readonly LookupRecord[], source = 'the lookup records'): ToolInvoker {
  const answer = (tool: string, args: Record<string, unknown>) => {
    const found = records.find((record) => record.tool === tool && isDeepStrictEqual(record.arguments, args));
    if (found === undefined) throw new Error(`no answer for \`${tool}\`(${JSON.stringify(args)}) in ${source}`);
    if (found.error !== undefined) throw new Error(found.error);
    return found.result;
  };
  return { invoke: async (tool, args) => answer(tool, args), invokeNow: answer };
}

/** Reads a lookup records file, naming the JSON path of every problem. */
export async function readLookupRecords(file: string): Promise<LookupRecord[]> {
  return parseInput(lookupRecordsSchema, parseJsonText(await readFile(file, 'utf8'), file), file);
}

/**
 * The lookups behind a `--lookups` option: an http(s) URL of the agent's backend (the
 * service's lookups protocol, see `httpInvoker`), the name of a domain whose data agentguard ships (`tau-airline`), or
 * a lookup records file. Only a shipped domain runs the recorded calls (the state follows a replayed run) and brings
 * its clock; the others answer lookups only.
 *
 * @example
 * ```ts
 * const fresh = await lookupsSource('lookups.json', 1000);
 * const { invoker } = fresh();
 * ```
 */
export async function lookupsSource(target: string, timeoutMs: number): Promise<LookupsFactory> {
  if (/^https?:\/\//.test(target)) {
    const invoker = httpInvoker(target, timeoutMs);
    return () => ({ invoker });
  }
  const domain = await environmentFor(target);
  if (domain !== undefined) return domain;
  let records: LookupRecord[];
  try {
    records = await readLookupRecords(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new InputError('--lookups', [
      {
        location: '--lookups',
        message: `expected an http(s) URL, \`tau-airline\` or a lookup records file, got \`${target}\` (no such file)`,
      },
    ]);
  }
  const invoker = recordsInvoker(records, target);
  return () => ({ invoker });
}
