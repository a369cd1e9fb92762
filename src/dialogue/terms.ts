/**
 * Questions on what an agreement covers (see `agreementTo`): the amount the call moves, the value it uses (a payment
 * method, an address) and the items it changes, each answered yes, no or unsure from the messages the user's yes
 * rests on. The words come from the pack (its domain description, its amount description); none are the library's.
 */
import type { Agreement } from './agreement.ts';
import type { DomainDescription, ValueKind } from './domain-description.ts';
import {
  classesNamed,
  type Evidence,
  type Fact,
  holds,
  namesOf,
  type StatedValue,
  type Transcript,
  text,
  type ValueFact,
} from './facts.ts';
import { affirmed } from './negation.ts';
import { named, said } from './phrases.ts';

/** How a domain states amounts of money: the currency's signs, and the words after an amount that make it "each". */
export interface AmountDescription {
  /** What stands before an amount, e.g. `['$']`: "$1,194", "$ 76.50". */
  currency: readonly string[];
  /** Words right after an amount that make it per unit, e.g. `['each', 'per passenger']`: "$100 each". */
  each?: readonly string[];
}

/** An amount a call moves, to be found among the amounts said around the yes. */
export interface AgreedAmount {
  /** What the call moves, in the currency's units (positive). */
  amount: number;
  /** The parts it is paid in (one per payment), all of which stated also agree; a part unknown is undefined. */
  parts?: readonly (number | undefined)[];
  /** How many units an amount stated "each" covers (passengers, items): "$100 each" also states `count` × 100. */
  count?: number;
}

/** What a call changes among items a proposal may list (flights, order lines). */
export interface ListedItems {
  /** Every item that may name the call in a proposal, e.g. the reservation's flights and the call's. */
  items: readonly string[];
  /** The items the call changes. */
  changed: readonly string[];
}

/** An amount stated in a text: the words, the amount, and whether an "each" follows it. */
interface StatedAmount {
  words: string;
  amount: number;
  each: boolean;
}

function literally(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const amountPatterns = new WeakMap<AmountDescription, RegExp>();
const amountsByText = new Map<string, readonly StatedAmount[]>();
let amountsDescribed: AmountDescription | undefined;

/** The amounts a lower-case text states, as `description` says they are written (remembered per text). */
function amountsIn(said: string, description: AmountDescription): readonly StatedAmount[] {
  if (amountsDescribed !== description || amountsByText.size > 2_000) {
    amountsByText.clear();
    amountsDescribed = description;
  }
  const known = amountsByText.get(said);
  if (known !== undefined) return known;
  let pattern = amountPatterns.get(description);
  if (pattern === undefined) {
    const signs = description.currency.map(literally).join('|');
    pattern = new RegExp(`(?:${signs === '' ? '(?!)' : signs})\\s?(\\d{1,3}(?:,\\d{3})+|\\d+)(\\.\\d{1,2})?`, 'gu');
    amountPatterns.set(description, pattern);
  }
  const amounts: StatedAmount[] = [];
  for (const match of said.matchAll(pattern)) {
    const after = said
      .slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 24)
      .trimStart();
    amounts.push({
      words: match[0],
      amount: Number(`${(match[1] ?? '').replaceAll(',', '')}${match[2] ?? ''}`),
      each: (description.each ?? []).some((phrase) => after.startsWith(phrase.toLowerCase())),
    });
  }
  amountsByText.set(said, amounts);
  return amounts;
}

const near = (amount: number, value: number) => Math.abs(amount - value) < 0.01;

/**
 * Whether the amount a call moves was stated in what the agreement rests on: the replies, the proposals and what the
 * user said before (amounts the agent quoted earlier do not count: the user may have turned them down). `yes` when
 * the amount, or every one of its parts, was stated (an amount "each" counts times `count` too); `no` when the call
 * moves more than every amount stated; `unsure` when none was stated, or another amount above it.
 *
 * @example
 * ```ts
 * const agreement = agreementTo(context.conversation, { tool: 'update_reservation_flights', names: [id] });
 * amountAgreed(context.conversation, agreement, { amount: 1194, count: 2 }, { currency: ['$'], each: ['each'] });
 * ```
 */
export function amountAgreed(
  transcript: Transcript,
  agreement: Agreement,
  request: AgreedAmount,
  description: AmountDescription,
): Fact {
  const stated: number[] = [];
  const evidence: Evidence[] = [];
  for (const group of [agreement.replies, agreement.proposals, agreement.earlierUser]) {
    for (const index of group) {
      const amounts = amountsIn(said(transcript.messages[index]), description);
      if (amounts.length === 0) continue;
      evidence.push({ message: index, words: amounts.map((amount) => amount.words) });
      for (const { amount, each } of amounts) {
        stated.push(amount);
        if (each && request.count !== undefined) stated.push(amount * request.count);
      }
      // The amount itself, once stated, settles it: nothing said after can change that.
      if (stated.some((amount) => near(amount, request.amount))) return { answer: 'yes', evidence: evidence.slice(-1) };
    }
  }
  const parts = request.parts ?? [];
  const wasStated = (value: number | undefined) => value !== undefined && stated.some((amount) => near(amount, value));
  if (parts.length > 1 && parts.every(wasStated)) return { answer: 'yes', evidence };
  if (stated.length === 0) return { answer: 'unsure', evidence, reason: 'no amount was stated' };
  if (request.amount > Math.max(...stated)) {
    return { answer: 'no', evidence, reason: 'the call moves more than any amount stated' };
  }
  return { answer: 'unsure', evidence, reason: 'another amount was stated' };
}

/** What a group of messages names of a kind: values by their own names, classes, roles; with the words. */
interface Named {
  values: Set<string>;
  classes: Set<string>;
  roles: Set<string>;
  evidence: Evidence[];
}

/** What one message names of a kind among some records: the values, classes and roles, each with its words. */
interface NamedInMessage {
  values: readonly [string, readonly string[]][];
  classes: readonly [string, readonly string[]][];
  roles: readonly [string, readonly string[]][];
}

/**
 * What each text names of a kind among records, remembered by kind, by what of the records a text can name (their
 * values, names, digits and classes) and by text, up to 2,000 texts: every decision on a conversation asks again of
 * the same messages and the same records, looked up afresh each time.
 */
const namedByKind = new WeakMap<ValueKind, Map<string, Map<string, NamedInMessage>>>();

/** What of `records` a text can name, as one string: two lists with the same are read the same. */
function nameable(kind: ValueKind, records: readonly Readonly<Record<string, unknown>>[]): string {
  const fields = [
    kind.key,
    ...(kind.names ?? []),
    ...(kind.digits ?? []),
    ...(kind.classes ? [kind.classes.field] : []),
  ];
  return JSON.stringify(records.map((record) => fields.map((field) => text(record, field) ?? null)));
}

function namedInMessage(
  lower: string,
  kind: ValueKind,
  records: readonly Readonly<Record<string, unknown>>[],
  set: string,
): NamedInMessage {
  let bySet = namedByKind.get(kind);
  if (bySet === undefined) {
    bySet = new Map();
    namedByKind.set(kind, bySet);
  }
  let byText = bySet.get(set);
  if (byText === undefined) {
    if (bySet.size >= 2_000) bySet.clear();
    byText = new Map();
    bySet.set(set, byText);
  }
  let found = byText.get(lower);
  if (found === undefined) {
    const values: [string, readonly string[]][] = [];
    for (const record of records) {
      const names = namesOf(lower, kind, record);
      const value = text(record, kind.key);
      if (names.length > 0 && value !== undefined) values.push([value, names]);
    }
    const roles = Object.entries(kind.roles ?? {})
      .map(([role, phrases]): [string, readonly string[]] => [role, affirmed(lower, phrases)])
      .filter(([, hits]) => hits.length > 0);
    found = { values, classes: classesNamed(lower, kind, records), roles };
    if (byText.size >= 2_000) byText.clear();
    byText.set(lower, found);
  }
  return found;
}

function namedIn(
  transcript: Transcript,
  group: readonly number[],
  request: StatedValue,
  domain: DomainDescription,
): Named {
  const kind = request.kind === undefined ? undefined : domain.kinds[request.kind];
  const found: Named = { values: new Set(), classes: new Set(), roles: new Set(), evidence: [] };
  const set = kind === undefined ? '' : nameable(kind, request.records ?? []);
  for (const index of group) {
    const lower = said(transcript.messages[index]);
    const words = [...named(lower, [request.value])];
    if (words.length > 0) found.values.add(request.value);
    if (kind !== undefined) {
      const inMessage = namedInMessage(lower, kind, request.records ?? [], set);
      for (const [value, names] of inMessage.values) {
        found.values.add(value);
        words.push(...names);
      }
      for (const [name, hits] of inMessage.classes) {
        found.classes.add(name);
        words.push(...hits);
      }
      // A role no value plays in this call names nothing.
      for (const [role, hits] of inMessage.roles) {
        if (request.roles?.[role] === undefined) continue;
        found.roles.add(role);
        words.push(...hits);
      }
    }
    if (words.length > 0) found.evidence.push({ message: index, words });
  }
  return found;
}

/**
 * Whether the value a call uses (a payment method, say) is the one named in what the agreement rests on. The first of
 * these that names any value of the kind decides: the replies, the proposals, what the user said before, what the
 * agent said before. `yes` when it names this value (by itself, its digits or a name: see `ValueKind`), its class
 * while naming no other value of that class ("my gift card"), or a role this value plays ("the original payment
 * method"); `no` when it names others, unless only the agent's earlier messages do (they also describe other records)
 * or it names only a class and no record gives this value its class: then `unsure`, as when none of them names any.
 *
 * @example
 * ```ts
 * valueAgreed(context.conversation, agreement, { value: args.payment_id, kind: 'payment_method', records }, domain);
 * ```
 */
export function valueAgreed(
  transcript: Transcript,
  agreement: Agreement,
  request: StatedValue,
  domain: DomainDescription,
): ValueFact {
  const kind = request.kind === undefined ? undefined : domain.kinds[request.kind];
  const records = request.records ?? [];
  const classOf = (value: string) => {
    const field = kind?.classes?.field;
    const record = kind === undefined ? undefined : records.find((candidate) => holds(candidate, kind.key, value));
    return field === undefined || record === undefined ? undefined : text(record, field);
  };
  const own = classOf(request.value);
  for (const group of [agreement.replies, agreement.proposals, agreement.earlierUser, agreement.earlierAgent]) {
    const found = namedIn(transcript, group, request, domain);
    if (found.values.size === 0 && found.classes.size === 0 && found.roles.size === 0) continue;
    const { evidence } = found;
    if (found.values.has(request.value)) return { answer: 'yes', evidence, value: request.value };
    const classNamedAlone =
      own !== undefined && found.classes.has(own) && ![...found.values].some((value) => classOf(value) === own);
    if (classNamedAlone) return { answer: 'yes', evidence, value: request.value };
    if ([...found.roles].some((role) => request.roles?.[role] === request.value)) {
      return { answer: 'yes', evidence, value: request.value };
    }
    // A class named ("your gift card") says nothing of a value whose own class the records do not give.
    if (own === undefined && found.values.size === 0 && found.roles.size === 0) {
      return { answer: 'unsure', evidence, reason: `no record says of which class \`${request.value}\` is` };
    }
    // The agent's earlier messages also describe other records and list offers: naming another value there is no
    // agreement to it.
    if (group === agreement.earlierAgent) {
      return {
        answer: 'unsure',
        evidence,
        reason: `only the agent's earlier messages name another value than \`${request.value}\``,
      };
    }
    return { answer: 'no', evidence, reason: `what was agreed names another value than \`${request.value}\`` };
  }
  return { answer: 'unsure', evidence: [], reason: `nobody named \`${request.value}\` or another` };
}

/**
 * Whether the agreement covers every item the call changes: when the replies or proposals list some of `items`, each
 * changed item must be named there or by the user before. `yes` when it is; `no` when a changed item is not (its
 * `reason` names them); `unsure` when the proposal lists none of the items, so it says nothing of them.
 *
 * @example
 * ```ts
 * itemsAgreed(context.conversation, agreement, { items: ['HAT286', 'HAT041'], changed: ['HAT041'] });
 * ```
 */
export function itemsAgreed(transcript: Transcript, agreement: Agreement, request: ListedItems): Fact {
  const texts = (group: readonly number[]) => group.map((index) => said(transcript.messages[index]));
  const agreed = texts([...agreement.replies, ...agreement.proposals]);
  const before = texts(agreement.earlierUser);
  const listed = request.items.filter((item) => agreed.some((lower) => named(lower, [item]).length > 0));
  if (listed.length === 0) return { answer: 'unsure', evidence: [], reason: 'the proposal lists none of the items' };
  const unlisted = request.changed.filter(
    (item) => ![...agreed, ...before].some((lower) => named(lower, [item]).length > 0),
  );
  const evidence = [{ message: agreement.proposals[0] ?? agreement.replies[0] ?? -1, words: [...new Set(listed)] }];
  if (unlisted.length === 0) return { answer: 'yes', evidence };
  return {
    answer: 'no',
    evidence,
    reason: `the user said yes to a change of ${[...new Set(listed)].join(', ')}; the call also changes ${unlisted.join(', ')}`,
  };
}
