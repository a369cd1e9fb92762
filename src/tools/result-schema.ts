import type { ToolSpec } from '../pack/tool-spec.ts';

type Schema = Record<string, unknown>;

/** Joins the schemas of several sample values (the items of a list, or one field across records). */
function joined(schemas: readonly Schema[]): Schema {
  const distinct = [...new Map(schemas.map((schema) => [JSON.stringify(schema), schema])).values()];
  if (distinct.length === 0) return {};
  if (distinct.length === 1) return distinct[0] as Schema;
  const records = distinct.filter((schema) => schema.type === 'object' && schema.additionalProperties !== undefined);
  const empty = (schema: Schema) =>
    schema.type === 'object' && Object.keys((schema.properties as Schema | undefined) ?? { x: 1 }).length === 0;
  if (records.length > 0 && distinct.every((schema) => records.includes(schema) || empty(schema))) {
    // Records keyed by ids, and empty objects (a record with no entry): one record of every value seen.
    return {
      type: 'object',
      additionalProperties: joined(records.map((schema) => schema.additionalProperties as Schema)),
    };
  }
  if (distinct.every((schema) => schema.type === 'object' && schema.properties !== undefined)) {
    const keys = [...new Set(distinct.flatMap((schema) => Object.keys(schema.properties as Schema)))];
    return {
      type: 'object',
      properties: Object.fromEntries(
        keys.map((key) => [
          key,
          joined(
            distinct.flatMap((schema): Schema[] => {
              const field = (schema.properties as Schema)[key] as Schema | undefined;
              return field === undefined ? [] : [field];
            }),
          ),
        ]),
      ),
      required: keys.filter((key) => distinct.every((schema) => (schema.required as string[]).includes(key))),
    };
  }
  return { anyOf: distinct };
}

/**
 * A JSON Schema learned from one sample value: the types of its fields, every field of a sample object required,
 * list items joined over the sample's items (a field that some items lack is optional), and an object whose keys are
 * ids (each has a digit) and whose values are objects kept as a record of those values. A starting point for review,
 * not a contract: a sample shows some records, not every record.
 *
 * @example
 * ```ts
 * schemaFromSample({ user_id: 'u1', bags: 2 }); // { type: 'object', properties: { user_id: { type: 'string' }, bags: { type: 'integer' } }, required: [...] }
 * ```
 */
export function schemaFromSample(value: unknown): Schema {
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) return { type: 'array', items: joined(value.map(schemaFromSample)) };
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    const keyedById =
      entries.length > 0 &&
      entries.every(
        ([key, field]) => /\d/.test(key) && typeof field === 'object' && field !== null && !Array.isArray(field),
      );
    if (keyedById)
      return { type: 'object', additionalProperties: joined(entries.map(([, field]) => schemaFromSample(field))) };
    return {
      type: 'object',
      properties: Object.fromEntries(entries.map(([key, field]) => [key, schemaFromSample(field)])),
      required: entries.map(([key]) => key),
    };
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  return { type: typeof value };
}

/**
 * Gives each tool without a result schema one learned from sample results the user provides (`samples`: tool name to
 * results it returned, joined as with list items). Tools with a schema of their own keep it; samples for an unknown
 * tool are reported.
 *
 * @example
 * ```ts
 * const { tools, unknown } = withSampleResults(read.tools, { get_user_details: [{ user_id: 'u1' }] });
 * ```
 */
export function withSampleResults(
  tools: readonly ToolSpec[],
  samples: Readonly<Record<string, readonly unknown[]>>,
): { tools: ToolSpec[]; learned: string[]; unknown: string[] } {
  const learned: string[] = [];
  const result = tools.map((tool) => {
    if (tool.returns !== undefined || !(tool.name in samples)) return tool;
    learned.push(tool.name);
    return { ...tool, returns: joined((samples[tool.name] ?? []).map(schemaFromSample)) };
  });
  return {
    tools: result,
    learned,
    unknown: Object.keys(samples).filter((name) => !tools.some((tool) => tool.name === name)),
  };
}
