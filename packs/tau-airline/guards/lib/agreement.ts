/**
 * What the user agreed to before a change: the explicit yes, the proposal it answers with the details it listed
 * (amounts, payment methods, flights), and a corrected choice after the tool rejected the call the yes was given for.
 */
import type { GuardContext, PastToolCall } from 'agentguard';
import { rememberedLast } from './last.ts';
import { type MessageReading, type MethodNumbers, nothingSaid, readMessage } from './reading.ts';
import type { PaymentMethod, Reservation, User } from './records.ts';

/** The tools that change the database: a successful call of one ends what an earlier yes covered. */
const changes = new Set([
  'book_reservation',
  'cancel_reservation',
  'update_reservation_flights',
  'update_reservation_baggages',
  'update_reservation_passengers',
  'send_certificate',
]);

/** The yes a call rests on and what was said around it. */
export interface Agreement {
  /** The assistant message the yes answers (`nothingSaid` when there is none). */
  proposal: MessageReading;
  /** Whether the proposal asks the user to confirm. */
  proposalAsks: boolean;
  /** Whether the proposal follows the tool's rejection of a call of the same tool (the agent's correction of it). */
  continuesRejected: boolean;
  /** What the agent put to the user: the proposal, and its questions after a rejected call. */
  proposed: readonly MessageReading[];
  /** The yes, then the corrected choice when there is one. */
  replied: readonly MessageReading[];
  /** What the user said earlier, since the last successful change. */
  userSaid: readonly MessageReading[];
  /** What the agent said earlier, since the last successful change (read when first asked for). */
  agentSaid(): readonly MessageReading[];
  /** Tool calls made after the yes (and after the correction), before the call being decided. */
  callsSince: readonly PastToolCall[];
}

const paymentKeys = new Set(['payment_id', 'payment_methods']);

/** A call's arguments apart from how it pays, as text. */
const withoutPayment = (args: Record<string, unknown>) =>
  JSON.stringify(Object.entries(args).filter(([key]) => !paymentKeys.has(key)));

/** Past calls' arguments apart from how they pay, read once per call (recorded arguments never change). */
const pastWithoutPayment = new WeakMap<Record<string, unknown>, string>();

/** Whether a past call's arguments are those of the call being decided, apart from how they pay. */
function samePaymentApart(past: Record<string, unknown>, args: Record<string, unknown>): boolean {
  let text = pastWithoutPayment.get(past);
  if (text === undefined) {
    text = withoutPayment(past);
    pastWithoutPayment.set(past, text);
  }
  return text === withoutPayment(args);
}

/** The agreement of the decision in progress, for the one tool a decision is about. */
const agreementOf = rememberedLast(
  (_context: GuardContext): { tool?: string; agreement?: Agreement | undefined } => ({}),
);

/**
 * Finds what the user agreed to for a call of `tool` with `args`: the last user message is an explicit yes, or it is
 * a corrected choice (not a refusal) after the tool rejected the same call (apart from its payment) that the user's
 * previous message said yes to. Undefined when neither holds. Read once per decision: every policy of one call gets
 * the same context.
 */
export function findAgreement(
  context: GuardContext,
  tool: string,
  args: Record<string, unknown>,
): Agreement | undefined {
  const slot = agreementOf(context);
  if (slot.tool !== tool) {
    slot.agreement = readAgreement(context, tool, args);
    slot.tool = tool;
  }
  return slot.agreement;
}

function readAgreement(context: GuardContext, tool: string, args: Record<string, unknown>): Agreement | undefined {
  const { conversation } = context;
  const said = conversation.readEach(readMessage);
  const last = conversation.lastUserIndex();
  if (last === -1) return undefined;
  const calls = conversation.toolCalls();
  let yes = last;
  let corrected = false;
  const answer = conversation.answerAt(last)?.answer;
  if (answer !== 'yes') {
    if (answer === 'no') return undefined;
    yes = lastUser(said, last);
    if (conversation.answerAt(yes)?.answer !== 'yes') return undefined;
    const tried = calls.filter(
      (past) => past.messageIndex > yes && past.messageIndex < last && past.call.name === tool,
    );
    if (
      tried.length === 0 ||
      tried.some((past) => !rejected(past)) ||
      !samePaymentApart(tried.at(-1)?.call.arguments ?? {}, args)
    ) {
      return undefined;
    }
    // A corrected choice with no words is read as no correction.
    corrected = said[last]?.text !== '';
  }
  let proposalIndex = -1;
  for (let index = yes - 1; index >= 0; index--) {
    const reading = said[index] as MessageReading;
    if (reading.role === 'user') break;
    if (reading.role === 'assistant' && !reading.blank) {
      proposalIndex = index;
      break;
    }
  }
  const proposal = said[proposalIndex] ?? nothingSaid;
  const askedFrom = lastUser(said, yes);
  // The calls are read from the last one back, and only as far as the agreement needs: the calls since the yes, then
  // the latest change before the yes that succeeded (where what was said starts to count) and the latest change tried
  // between the previous user message and the proposal.
  let index = calls.length - 1;
  while (index >= 0 && (calls[index] as PastToolCall).messageIndex > last) index--;
  const callsSince = calls.slice(index + 1);
  while (index >= 0 && (calls[index] as PastToolCall).messageIndex >= yes) index--;
  let start: number | undefined;
  let lastTried: PastToolCall | undefined;
  for (; index >= 0; index--) {
    const past = calls[index] as PastToolCall;
    if (start !== undefined && (lastTried !== undefined || past.messageIndex <= askedFrom)) break;
    if (!changes.has(past.call.name)) continue;
    if (lastTried === undefined && past.messageIndex > askedFrom && past.messageIndex < proposalIndex) lastTried = past;
    if (start === undefined && !rejected(past)) start = past.messageIndex + 1;
  }
  start ??= 0;
  const userSaid: MessageReading[] = [];
  const proposed = [proposal];
  for (let index = start; index < last; index++) {
    const reading = said[index] as MessageReading;
    if (index === yes) continue;
    if (reading.role === 'user') userSaid.push(reading);
    if (reading.role === 'assistant' && index > yes) proposed.push(reading);
  }
  let agentSaid: MessageReading[] | undefined;
  return {
    proposal,
    proposalAsks: proposalIndex !== -1 && conversation.asksAt(proposalIndex),
    continuesRejected: lastTried?.call.name === tool && rejected(lastTried),
    proposed,
    replied: corrected ? [said[yes] as MessageReading, said[last] as MessageReading] : [said[last] as MessageReading],
    userSaid,
    agentSaid() {
      if (agentSaid === undefined) {
        agentSaid = [];
        for (let index = start; index < proposalIndex; index++) {
          const reading = said[index] as MessageReading;
          if (reading.role === 'assistant') agentSaid.push(reading);
        }
      }
      return agentSaid;
    },
    callsSince,
  };
}

/** The index of the last user message before `index`, or -1. */
function lastUser(said: readonly MessageReading[], index: number): number {
  for (let earlier = index - 1; earlier >= 0; earlier--) {
    if (said[earlier]?.role === 'user') return earlier;
  }
  return -1;
}

/** Whether the tool refused a past call. */
export function rejected(past: PastToolCall): boolean {
  return past.result?.startsWith('Error') === true;
}

/**
 * Adds the dollar amounts a message states to `amounts`: `$1,194`, `$76.50`; with "each" or "per passenger" after one,
 * also that amount times `passengers`.
 */
function addStatedAmounts(said: MessageReading, passengers: number, amounts: number[]): void {
  for (const { amount, each } of said.amounts) {
    amounts.push(amount);
    if (each) amounts.push(amount * passengers);
  }
}

/** The payment methods a text names: by id or card digits, by kind, or as the reservation's original method. */
interface NamedPayments {
  ids: Set<string>;
  kinds: Set<PaymentMethod['source']>;
  original: boolean;
}

/** The numbers that name each payment method of a user: the digits ending its id (four or more), a card's last four. */
const numbersOfMethods = new WeakMap<User, readonly MethodNumbers[]>();

/** The numbers naming `user`'s payment methods, read once per user record (records are never changed in place). */
function methodNumbers(user: User): readonly MethodNumbers[] {
  let methods = numbersOfMethods.get(user);
  if (methods === undefined) {
    methods = Object.values(user.payment_methods).map((method) => {
      const digits = /\d+$/.exec(method.id)?.[0];
      const numbers = digits !== undefined && digits.length >= 4 ? [digits] : [];
      if (method.source === 'credit_card') numbers.push(method.last_four);
      return { id: method.id, numbers };
    });
    numbersOfMethods.set(user, methods);
  }
  return methods;
}

function namedPayments(
  messages: readonly MessageReading[],
  user: User,
  reservation: Reservation | undefined,
): NamedPayments {
  const methods = methodNumbers(user);
  const ids = new Set<string>();
  const kinds = new Set<PaymentMethod['source']>();
  let original = false;
  for (const said of messages) {
    for (const id of said.namedMethods(methods)) ids.add(id);
    for (const kind of said.paymentKinds) kinds.add(kind);
    original ||= said.originalPayment;
  }
  return { ids, kinds, original: reservation !== undefined && original };
}

const nothingNamed = (named: NamedPayments) => named.ids.size === 0 && named.kinds.size === 0 && !named.original;

/**
 * How a payment method stands against what was named: `agreed`, `other` (other methods were named) or `unnamed`.
 * The first of these that names a method decides: the user's yes and corrected choice, the proposal, what the user
 * said earlier, what the agent said earlier. A method missing from the profile is left to the payment policies.
 */
function paymentStanding(
  agreement: Agreement,
  user: User,
  paymentId: string,
  reservation: Reservation | undefined,
): 'agreed' | 'other' | 'unnamed' {
  const source = user.payment_methods[paymentId]?.source;
  if (source === undefined) return 'agreed';
  const named = namedOf(agreement);
  if (!('value' in named)) {
    named.value = undefined;
    // Read in order, and only until one names a method: the agent's earlier text is read only when nothing else does.
    for (const said of [agreement.replied, agreement.proposed, agreement.userSaid, agreement.agentSaid]) {
      const candidate = namedPayments(typeof said === 'function' ? said() : said, user, reservation);
      if (!nothingNamed(candidate)) {
        named.value = candidate;
        break;
      }
    }
  }
  return standingAmong(named.value, user, paymentId, source, reservation);
}

/** The payments named for an agreement, read once per decision (the user and reservation are the decision's). */
const namedOf = rememberedLast((_agreement: Agreement): { value?: NamedPayments | undefined } => ({}));

/** Whether one of the named methods is of kind `source`. */
function namesKind(ids: ReadonlySet<string>, user: User, source: PaymentMethod['source']): boolean {
  for (const id of ids) if (user.payment_methods[id]?.source === source) return true;
  return false;
}

function standingAmong(
  named: NamedPayments | undefined,
  user: User,
  paymentId: string,
  source: PaymentMethod['source'],
  reservation: Reservation | undefined,
): 'agreed' | 'other' | 'unnamed' {
  if (named === undefined) return 'unnamed';
  if (named.ids.has(paymentId)) return 'agreed';
  if (named.kinds.has(source) && !namesKind(named.ids, user, source)) return 'agreed';
  if (named.original && reservation?.payment_history.some((payment) => payment.payment_id === paymentId) === true) {
    return 'agreed';
  }
  return 'other';
}

/** How a payment method is shown to the user. */
function describePayment(user: User, paymentId: string): string {
  const method = user.payment_methods[paymentId];
  if (method?.source === 'credit_card') return `${method.brand} card ending in ${method.last_four}`;
  if (method?.source === 'gift_card') return `gift card ${paymentId}`;
  return paymentId;
}

/** An amount in dollars as the user would read it: `$1,194`, `$76.5`. */
function dollars(amount: number): string {
  const [whole = '0', cents] = String(Math.abs(amount)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${grouped}${cents === undefined ? '' : `.${cents}`}`;
}

/**
 * How a charge (or, for a booking, its payments) stands against the amounts of the proposal, the yes and what the user
 * said since the last change: `agreed` (one of them), `more` (above all of them), `other` (another amount below one of
 * them) or `unstated` (they hold no amount). Amounts the agent quoted earlier do not count: the user may have turned
 * them down.
 */
function chargeStanding(agreement: Agreement, terms: CallTerms): ChargeStanding {
  const slot = chargeOf(agreement);
  slot.standing ??= readChargeStanding(agreement, terms);
  return slot.standing;
}

type ChargeStanding = 'agreed' | 'more' | 'other' | 'unstated';

/** The charge's standing for an agreement, read once per decision (the terms are the decision's). */
const chargeOf = rememberedLast((_agreement: Agreement): { standing?: ChargeStanding } => ({}));

function readChargeStanding(agreement: Agreement, terms: CallTerms): ChargeStanding {
  const charge = terms.charge ?? 0;
  const amounts: number[] = [];
  const near = (amount: number, value: number) => Math.abs(amount - value) < 0.01;
  for (const messages of [agreement.replied, agreement.proposed, agreement.userSaid]) {
    for (const said of messages) {
      const from = amounts.length;
      addStatedAmounts(said, terms.passengers, amounts);
      // The charge itself, once stated, settles it: nothing said after can change that.
      for (let index = from; index < amounts.length; index++)
        if (near(amounts[index] as number, charge)) return 'agreed';
    }
  }
  const stated = (value: number) => amounts.some((amount) => near(amount, value));
  const parts = terms.payments.map((payment) => payment.amount);
  if (stated(charge) || (parts.length > 1 && parts.every((part) => part !== undefined && stated(part))))
    return 'agreed';
  if (amounts.length === 0) return 'unstated';
  return charge > Math.max(...amounts) ? 'more' : 'other';
}

/** What a change does that the user must have agreed to. */
export interface CallTerms {
  /** The booking user, whose payment methods pay. */
  user: User | undefined;
  reservation: Reservation | undefined;
  passengers: number;
  /** What the call charges in dollars (negative: a refund); undefined when it cannot be computed. */
  charge: number | undefined;
  /** The payment methods the call uses, with the amount each pays when the call says. */
  payments: readonly { id: string; amount?: number }[];
  /** Flights the call changes (new, re-dated or re-priced in another cabin). */
  changedFlights: readonly string[];
  /** Flight numbers that may name this change in a proposal: the reservation's and the call's. */
  flightNumbers: readonly string[];
}

/**
 * Why a call is not what the user agreed to, or undefined: it charges more than every amount stated to the user,
 * pays with another method than the user named, or changes flights the proposal did not name when it named some.
 */
export function contradiction(agreement: Agreement, terms: CallTerms): string | undefined {
  const { user, charge } = terms;
  if (charge !== undefined && charge > 0 && chargeStanding(agreement, terms) === 'more') {
    return `the call charges ${dollars(charge)}, more than any amount the user said yes to: state the amount and ask again`;
  }
  if (user !== undefined && charge !== 0) {
    for (const payment of terms.payments) {
      if (paymentStanding(agreement, user, payment.id, terms.reservation) === 'other') {
        return `the call pays with ${describePayment(user, payment.id)}, which is not the payment the user chose: ask again with the method the user named`;
      }
    }
  }
  const proposed = [...agreement.proposed, ...agreement.replied];
  const says = (messages: readonly MessageReading[], number: string) => messages.some((said) => said.mentions(number));
  const named = terms.flightNumbers.filter((number) => says(proposed, number));
  if (named.length > 0) {
    const unnamed = terms.changedFlights.filter(
      (number) => !says(proposed, number) && !says(agreement.userSaid, number),
    );
    if (unnamed.length > 0) {
      return `the user said yes to a change of ${[...new Set(named)].join(', ')}; the call also changes ${unnamed.join(', ')}: list every segment the call changes and ask again`;
    }
  }
  return undefined;
}

/**
 * The question to put to the user when the conversation cannot settle what the call charges, or undefined: the
 * charge or the payment method was never stated before the yes (by this reading, nor by `statedByUser`, the shared
 * reading of the user's words through the domain description), or the charge differs from (and is below) what was.
 */
export function unsettled(
  agreement: Agreement,
  terms: CallTerms,
  statedByUser: (paymentId: string) => boolean,
): string | undefined {
  const { user, charge } = terms;
  if (user === undefined || charge === undefined || charge === 0) return undefined;
  const standing = charge < 0 ? 'agreed' : chargeStanding(agreement, terms);
  let why: string | undefined;
  if (standing === 'unstated' || standing === 'other') why = 'the user was not told the amount the call charges';
  else if (
    terms.payments.some(
      (payment) =>
        paymentStanding(agreement, user, payment.id, terms.reservation) === 'unnamed' && !statedByUser(payment.id),
    )
  )
    why = 'nobody named the payment method';
  if (why === undefined) return undefined;
  const method = terms.payments.map((payment) => describePayment(user, payment.id)).join(' and ');
  const question =
    charge > 0
      ? `"This charges ${dollars(charge)} to your ${method}. Shall I go ahead?"`
      : `"The ${dollars(charge)} refund goes to your ${method}. Shall I go ahead?"`;
  return `${why}; ask the user: ${question}`;
}
