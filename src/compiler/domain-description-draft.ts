import type { DomainDescription, ValueKind } from '../dialogue/domain-description.ts';
import type { AmountDescription } from '../dialogue/terms.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';

type Schema = Record<string, unknown>;

const keyField = /^(id|code|iata|[a-z]+_(id|code))$/;
const nameField = /(^|_)(name|city|title|label)$/;
const digitField = /(^|_)(last_four|last4|ending|digits)$/;
const classField = /^(source|type|kind|category|class|method)$/;

const words = (value: string) => value.replace(/_/g, ' ');

/** The record schemas a result schema holds, with the property (or lookup) they stand under. */
function records(schema: Schema, under: string, found: [string, Schema][]): void {
  if (Array.isArray(schema.anyOf)) for (const item of schema.anyOf as Schema[]) records(item, under, found);
  if (schema.type === 'array' && typeof schema.items === 'object') records(schema.items as Schema, under, found);
  if (schema.type !== 'object') return;
  if (typeof schema.additionalProperties === 'object') records(schema.additionalProperties as Schema, under, found);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  if (Object.keys(properties).some((key) => keyField.test(key))) found.push([under, schema]);
  for (const [key, property] of Object.entries(properties)) records(property, key, found);
}

/** The kind a record schema describes, merged into what was found of the same kind already. */
function kindOf(schema: Schema, known: ValueKind | undefined): ValueKind {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const keys = Object.keys(properties);
  const key = known?.key ?? keys.find((name) => name === 'id') ?? (keys.find((name) => keyField.test(name)) as string);
  const names = new Set([...(known?.names ?? []), ...keys.filter((name) => nameField.test(name) && name !== key)]);
  const digits = new Set([...(known?.digits ?? []), ...keys.filter((name) => digitField.test(name))]);
  const kind: ValueKind = { key };
  if (names.size > 0) kind.names = [...names];
  if (digits.size > 0) kind.digits = [...digits];
  const classes =
    keys.find((name) => classField.test(name) && properties[name]?.type === 'string') ?? known?.classes?.field;
  if (classes !== undefined) {
    const values = (properties[classes]?.enum ?? []) as string[];
    const phrases = { ...known?.classes?.phrases };
    for (const value of values) phrases[value] = [words(value)];
    kind.classes = { field: classes, phrases };
  }
  return kind;
}

/** Each record schema the lookups return, with the kind it is of (named after the property or lookup it stands under). */
function kindRecords(lookups: readonly ToolSpec[]): [string, Schema][] {
  const found: [string, Schema][] = [];
  for (const lookup of lookups) {
    if (lookup.returns === undefined) continue;
    const mine: [string, Schema][] = [];
    records(lookup.returns, lookup.name.replace(/^(get|list|search|find)_(all_)?/, '').replace(/_details$/, ''), mine);
    for (const [under, schema] of mine) found.push([under.replace(/ies$/, 'y').replace(/s$/, ''), schema]);
  }
  return found;
}

/**
 * Drafts a pack's domain description from its lookups' result schemas: a kind for every record with an id, whose
 * name-like fields (`name`, `city`, …) name it, whose digit fields (`last_four`) name it when said, and whose class
 * field (`source`, `type`, …) sorts it (each class named by its value in words, and by phrases for the enumerated
 * values). Roles and orders ("the original payment method", "the cheapest") are not in the schemas: the compiler's
 * domain step adds them from the policy document (see `domainDescriptionPrompt`), and a reviewer checks them.
 *
 * @example
 * ```ts
 * draftDomainDescription(lookups); // { kinds: { airport: { key: 'iata', names: ['city'] }, … } }
 * ```
 */
export function draftDomainDescription(lookups: readonly ToolSpec[]): DomainDescription {
  const kinds: Record<string, ValueKind> = {};
  for (const [name, schema] of kindRecords(lookups)) kinds[name] = kindOf(schema, kinds[name]);
  return { kinds };
}

/**
 * The fields of each kind's records and their JSON types, from the lookups' result schemas: what a domain description
 * may name (a name field, an order's field).
 *
 * @example
 * ```ts
 * kindFields(lookups); // { payment_method: { id: 'string', source: 'string', amount: 'number' }, … }
 * ```
 */
export function kindFields(lookups: readonly ToolSpec[]): Record<string, Record<string, string>> {
  const fields: Record<string, Record<string, string>> = {};
  for (const [name, schema] of kindRecords(lookups)) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const known = fields[name] ?? {};
    for (const [field, property] of Object.entries(properties)) {
      known[field] = typeof property.type === 'string' ? property.type : 'unknown';
    }
    fields[name] = known;
  }
  return fields;
}

/**
 * The source of `guards/lib/domain-description.ts`, the module a pack ships its domain description in: reviewed like
 * any guard, read by the conversation's `stated` question; with `amounts`, also how the domain writes amounts of
 * money, read by the agreement's `amount` term.
 *
 * @example
 * ```ts
 * domainDescriptionSource(draftDomainDescription(lookups));
 * ```
 */
export function domainDescriptionSource(description: DomainDescription, amounts?: AmountDescription): string {
  const types = amounts === undefined ? 'DomainDescription' : 'AmountDescription, DomainDescription';
  const written =
    amounts === undefined
      ? ''
      : `
/** How amounts of money are written: pass it as the \`description\` of an agreement's \`amount\` term. */
export const amounts: AmountDescription = ${JSON.stringify(amounts, null, 2)};
`;
  return `/**
 * How the people of this domain refer to its values, read by \`context.conversation.stated(…, domain)\`. Drafted by
 * agentguard from the lookups' result schemas; review it like any guard, and add the roles ("the original payment
 * method") and orders ("the cheapest") the domain's people use.
 */
import type { ${types} } from 'agentguard';

export const domain: DomainDescription = ${JSON.stringify(description, null, 2)};
${written}`;
}
