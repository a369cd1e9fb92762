/**
 * Runs `task` on every item, at most `limit` at a time, and gives the results in the items' order. Once a task
 * fails no further item is started; the tasks under way are awaited, then the first failure is thrown.
 *
 * @example
 * ```ts
 * const specs = await mapConcurrently(tools, 4, (tool) => mapTool(tool));
 * ```
 */
export async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  limit: number,
  task: (item: Item, index: number) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = [];
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (failures.length === 0 && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index] as Item, index);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
}
