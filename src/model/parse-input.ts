import type { z } from 'zod';
import { type ErrorCode, InputError } from '../errors.ts';

/** Renders a JSON path such as `$.traj[3].tool_calls[0]`. */
export function jsonPath(path: readonly PropertyKey[], root = '$'): string {
  let rendered = root;
  for (const key of path) rendered += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return rendered;
}

/**
 * Validates `value` with a zod schema; on failure throws an `InputError` naming `source` and the JSON path of every
 * issue.
 *
 * @example
 * ```ts
 * const call = parseInput(toolCallSchema, JSON.parse(text), 'call.json');
 * ```
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  source: string,
  options: { root?: string; code?: ErrorCode } = {},
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new InputError(
    source,
    result.error.issues.map((issue) => ({ location: jsonPath(issue.path, options.root), message: issue.message })),
    options.code,
  );
}

/**
 * Parses JSON text; on a syntax error throws an `InputError` naming `source` and the line and column.
 *
 * @example
 * ```ts
 * const value = parseJsonText('{"a": 1}', 'call.json');
 * ```
 */
export function parseJsonText(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message)?.[1];
    let location = '$';
    if (position !== undefined) {
      const before = text.slice(0, Number(position));
      const line = before.split('\n').length;
      location = `line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
    }
    throw new InputError(source, [{ location, message: `not valid JSON: ${message}` }]);
  }
}
