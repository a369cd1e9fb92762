import { z } from 'zod';

/** Schema of a tool spec: a tool's name, description, argument schema and whether it only reads. */
export const toolSpecSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  /** JSON Schema of the arguments object. */
  parameters: z.record(z.string(), z.unknown()),
  /** True for lookups, which guards may call; false for tools that change state. */
  readOnly: z.boolean(),
  /** JSON Schema of the result, when known: typed results for guard code. */
  returns: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A tool's name, description, argument schema (JSON Schema) and whether it is a read-only lookup.
 *
 * @example
 * ```ts
 * const spec: ToolSpec = { name: 'think', description: 'Think.', parameters: { type: 'object' }, readOnly: true };
 * ```
 */
export type ToolSpec = z.output<typeof toolSpecSchema>;
