/**
 * What the user agreed to before a change, read through the conversation's `agreed` question: the yes and the
 * proposal it answers (or a corrected choice after the tool rejected the call the yes was given for), and whether the
 * call keeps what was agreed: the amount stated, the payment method named, the segments listed.
 */
import type { Agreement, Fact, GuardContext, PolicyFinding } from 'agentguard';
import { amounts, domain } from './domain-description.ts';
import { rememberedLast } from './last.ts';
import type { Reservation, User } from './records.ts';

/** The tools that change the database: a successful call of one ends what an earlier yes covered. */
const changes = [
  'book_reservation',
  'cancel_reservation',
  'update_reservation_flights',
  'update_reservation_baggages',
  'update_reservation_passengers',
  'send_certificate',
];

const paymentKeys = new Set(['payment_id', 'payment_methods']);

/** A call's arguments apart from how it pays, as text. */
const withoutPayment = (args: Record<string, unknown>) =>
  JSON.stringify(Object.entries(args).filter(([key]) => !paymentKeys.has(key)));

/** Words of a proposal that name a booking. */
export const bookingAction = /\bbook|\breservation\b|\bpayment\b|\bpurchase/;

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

/** What a confirmation must be about: words that name the action, and details of the call. */
export interface ActionDescription {
  /** Words that name the action, e.g. /\bcancel/ for a cancellation. */
  action: RegExp;
  /** Details of the call (ids, flight numbers); naming one also ties the proposal to the action. */
  details: readonly string[];
}

/** The payments of the call that are in the user's profile (others are left to the payment policies). */
function paymentsInProfile(terms: CallTerms): readonly { id: string; amount?: number }[] {
  return terms.payments.filter((payment) => terms.user?.payment_methods[payment.id] !== undefined);
}

/**
 * The user's agreement to a call, with the terms asked about: the charge against the amounts stated, each payment
 * method in the profile against the one named (by id or digits, by kind, or as the reservation's original method),
 * and the changed flights against those the proposal listed.
 */
function agreementTo(
  context: GuardContext,
  call: { name: string; arguments: Record<string, unknown> },
  action: (ActionDescription & { sameTarget: (args: Record<string, unknown>) => boolean }) | undefined,
  terms: CallTerms | undefined,
): Agreement {
  const charge = terms?.charge;
  const user = terms?.user;
  const original = terms?.reservation?.payment_history[0]?.payment_id;
  return context.conversation.agreed(
    {
      tool: call.name,
      names: action?.details.filter((detail) => detail !== '') ?? [],
      ...(action === undefined ? {} : { action: action.action, sameTarget: action.sameTarget }),
    },
    {
      corrects: (rejected) => withoutPayment(rejected) === withoutPayment(call.arguments),
      changes,
      ...(terms === undefined || charge === undefined || charge <= 0
        ? {}
        : {
            amount: {
              amount: charge,
              parts: terms.payments.map((payment) => payment.amount),
              count: terms.passengers,
              description: amounts,
            },
          }),
      ...(terms === undefined || user === undefined || charge === 0
        ? {}
        : {
            values: paymentsInProfile(terms).map((payment) => ({
              value: payment.id,
              kind: 'payment_method',
              records: Object.values(user.payment_methods),
              ...(original === undefined ? {} : { roles: { original } }),
            })),
          }),
      domain,
      ...(terms === undefined ? {} : { items: { items: terms.flightNumbers, changed: terms.changedFlights } }),
    },
  );
}

/**
 * The agreement the confirmation policy of the decision in progress read, by the call's terms (computed once per
 * decision): the payment policy reads the same messages and terms, so it takes that agreement rather than read again.
 */
const confirmedWith = rememberedLast((_terms: CallTerms): { agreement?: Agreement } => ({}));

/** The words that decided a fact, quoted. */
export function decidedBy(fact: Fact): string {
  const words = fact.evidence.flatMap((evidence) => evidence.words);
  return words.length === 0 ? '' : ` (${words.map((word) => `"${word}"`).join(', ')})`;
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
 * Why a call is not what the user agreed to, or undefined: it charges more than every amount stated to the user,
 * pays with another method than the one named, or changes flights the proposal did not name when it named some.
 */
function contradiction(agreement: Agreement, terms: CallTerms): string | undefined {
  const { user, charge } = terms;
  if (charge !== undefined && charge > 0 && agreement.amount?.answer === 'no') {
    return `the call charges ${dollars(charge)}, more than any amount the user said yes to: state the amount and ask again`;
  }
  const payments = paymentsInProfile(terms);
  const other = agreement.values?.findIndex((value) => value.answer === 'no') ?? -1;
  const payment = payments[other];
  if (user !== undefined && payment !== undefined) {
    return `the call pays with ${describePayment(user, payment.id)}, which is not the payment the user chose: ask again with the method the user named`;
  }
  if (agreement.items?.answer === 'no') {
    return `${agreement.items.reason}: list every segment the call changes and ask again`;
  }
  return undefined;
}

/**
 * Checks that the user explicitly confirmed this call (see `Conversation.agreed`): a clear yes (or a corrected choice
 * after the tool rejected the call that yes was given for) to an assistant message that asks for confirmation and
 * names the action or one of its details, or corrects a call of this tool that the tool rejected; not already used for
 * the same action on the same target; and, when `terms` are given, the call does no more than the user agreed to. A
 * yes not found unsure asks the user (the confirmation policies' specs make that deny); a no denies.
 */
export function unconfirmed(
  context: GuardContext,
  call: { name: string; arguments: Record<string, unknown> },
  action: ActionDescription,
  sameTarget: (args: Record<string, unknown>) => boolean,
  terms?: CallTerms,
): PolicyFinding | undefined {
  const agreement = agreementTo(context, call, { ...action, sameTarget }, terms);
  if (terms !== undefined) confirmedWith(terms).agreement = agreement;
  if (agreement.answer !== 'yes') {
    const message = `the user has not explicitly confirmed this action: ${agreement.reason}${decidedBy(agreement)}; list the action details and ask for a yes first`;
    return agreement.answer === 'no'
      ? { message }
      : { message, ask: 'Do you confirm the change as listed? Please answer yes to go ahead.' };
  }
  const problem = terms === undefined ? undefined : contradiction(agreement, terms);
  return problem === undefined ? undefined : { message: problem };
}

/**
 * The question to put to the user when the conversation does not settle what a confirmed call charges or how it
 * pays; undefined when it does, or when there is no yes at all (the confirmation policy denies that). The charge is
 * unsettled when no amount was stated before the yes, or another amount below it; a payment method when neither what
 * the agreement rests on nor the user's own words (`Conversation.stated`) name it.
 */
export function paymentUnsettled(
  context: GuardContext,
  call: { name: string; arguments: Record<string, unknown> },
  terms: CallTerms,
): PolicyFinding | undefined {
  const { user, charge, reservation } = terms;
  if (user === undefined || charge === undefined || charge === 0) return undefined;
  const agreement = confirmedWith(terms).agreement ?? agreementTo(context, call, undefined, terms);
  if (agreement.replies.length === 0) return undefined;
  const original = reservation?.payment_history[0]?.payment_id;
  const statedByUser = (paymentId: string) =>
    context.conversation.stated(
      {
        value: paymentId,
        kind: 'payment_method',
        records: Object.values(user.payment_methods),
        ...(original === undefined ? {} : { roles: { original } }),
      },
      domain,
    ).answer === 'yes';
  const payments = paymentsInProfile(terms);
  let why: string | undefined;
  if (charge > 0 && agreement.amount?.answer === 'unsure') why = 'the user was not told the amount the call charges';
  else if (
    agreement.values?.some(
      (value, index) => value.answer === 'unsure' && !statedByUser(payments[index]?.id ?? value.value ?? ''),
    ) === true
  )
    why = 'nobody named the payment method';
  if (why === undefined) return undefined;
  const method = terms.payments.map((payment) => describePayment(user, payment.id)).join(' and ');
  const question =
    charge > 0
      ? `"This charges ${dollars(charge)} to your ${method}. Shall I go ahead?"`
      : `"The ${dollars(charge)} refund goes to your ${method}. Shall I go ahead?"`;
  return { message: `${why}; ask the user: ${question}`, facts: { charge } };
}
