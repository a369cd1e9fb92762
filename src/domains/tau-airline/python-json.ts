/**
 * Serialises a value the way Python's `json.dumps` does with its default separators (`", "` and `": "`), so tool
 * results read as the tau-bench tools print them.
 *
 * @example
 * ```ts
 * pythonJson({ a: [1, 2] }); // '{"a": [1, 2]}'
 * ```
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
