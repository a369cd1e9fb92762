import type { ToolInvoker } from '../src/model/guard-context.ts';

/**
 * Sample results of lookups: each tool called once with each of its argument sets, the results in the same order, for
 * a build to learn the lookups' result schemas from (`withSampleResults`).
 *
 * @example
 * ```ts
 * const samples = await lookupSamples(invoker, { get_user_details: [{ user_id: 'mia_li_3668' }] });
 * ```
 */
export async function lookupSamples(
  invoker: ToolInvoker,
  calls: Record<string, readonly Record<string, unknown>[]>,
): Promise<Record<string, unknown[]>> {
  const samples: Record<string, unknown[]> = {};
  for (const [tool, args] of Object.entries(calls))
    samples[tool] = await Promise.all(args.map((item) => invoker.invoke(tool, item)));
  return samples;
}
