import { InputError } from '../errors.ts';

/**
 * A framework's tool call arguments as a `ToolCall`'s arguments: a plain object, else an `InputError` naming the
 * conversation and the place of the call.
 *
 * @example
 * ```ts
 * const args = toolArguments(part.input, 'AI SDK messages', '$[3].content[0].input');
 * ```
 */
export function toolArguments(value: unknown, source: string, location: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new InputError(source, [{ location, message: 'expected the tool call arguments to be an object' }]);
}
