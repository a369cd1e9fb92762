/**
 * Turning conversation facts into a check's answer. Shipped by agentguard into generated packs as
 * `guards/lib/dialogue.ts`: every check that depends on what the user said asks the conversation's questions
 * (`agreed`, `stated`, `chose`, `reasonGiven`, `askedAbout`) and decides with these, instead of matching message text
 * itself. A yes lets the check go on, a no denies with what decided it, and unsure asks the person, unless the policy
 * says a missing fact must deny.
 */
import type {
  Agreement,
  AgreementTerms,
  DomainDescription,
  Fact,
  GuardContext,
  PolicyFinding,
  ProposedCall,
  StatedValue,
  ValueFact,
} from 'agentguard';

/** How a check decides on a fact that is not a yes. */
export interface FactDecision {
  /** What the policy needs, for the agent: e.g. "the user must state the payment method". */
  need: string;
  /** The question to put to the person when the fact is unsure, e.g. "Which payment method did the user choose?". */
  question: string;
  /** Deny an unsure fact too: only where the policy says a missing fact must deny. Default false: unsure asks. */
  missingDenies?: boolean;
}

/** The words that decided a fact, quoted, for the agent. */
function decidedBy(fact: Fact): string {
  const words = fact.evidence.flatMap((evidence) => evidence.words);
  return words.length === 0 ? '' : ` (decided by ${words.map((word) => `"${word}"`).join(', ')})`;
}

/**
 * The finding for a fact: none on a yes; a deny on a no, naming what decided it; on unsure, a finding that asks the
 * person `question` (or denies, where `missingDenies`).
 *
 * @example
 * ```ts
 * const fact = context.conversation.stated({ value: args.payment_id, kind: 'payment_method', records }, domain);
 * return decide(fact, { need: 'the user must choose the payment method', question: 'Did the user choose this payment method?' });
 * ```
 */
export function decide(fact: Fact, { need, question, missingDenies = false }: FactDecision): PolicyFinding | undefined {
  if (fact.answer === 'yes') return undefined;
  const message = `${need}: ${fact.reason ?? `the conversation answers ${fact.answer}`}${decidedBy(fact)}`;
  const facts = { answer: fact.answer, evidence: fact.evidence };
  return fact.answer === 'unsure' && !missingDenies ? { message, facts, ask: question } : { message, facts };
}

/** What a confirmation must be about. */
export interface ConfirmedAction {
  /** Words that name the action in the assistant's proposal, e.g. /\bcancel/ for a cancellation. */
  action: RegExp;
  /**
   * Details of the call that identify it (an id, an order number, a name): a proposal that names one of them is about
   * this action even without the action's words. Not every argument: a proposal need not spell out each value.
   */
  details: readonly string[];
}

/** Why a confirmed call is not what the user agreed to: a term of the agreement answered 'no', or undefined. */
function termBroken(agreement: Agreement): string | undefined {
  if (agreement.amount?.answer === 'no')
    return agreement.amount.reason ?? 'the amount the call moves is not the one stated';
  const value = agreement.values?.find((fact) => fact.answer === 'no');
  if (value !== undefined) return value.reason ?? 'the call uses another value than the one agreed';
  if (agreement.items?.answer === 'no') return agreement.items.reason ?? 'the proposal left out items the call changes';
  return undefined;
}

/**
 * Checks that the user explicitly confirmed this call before it runs (see \`Conversation.agreed\`): a clear yes to the
 * agent's request that names the action or one of its details, not used by an earlier successful call of the same
 * tool on the same target. A policy that asks for explicit confirmation denies a refusal and the absence of a yes:
 * the agent must list the details and ask; a yes the reading cannot tie to this call (its proposal names neither the
 * action nor a detail, or an earlier call used it) asks the person. \`terms\` are what the call must keep of the
 * agreement (the amount it moves, the values it uses such as how it pays, the items it changes; the tools that change
 * records; a correction after a rejected call): a term answered 'no' denies; an amount the user was not told asks
 * the person, stating it, since a yes to a charge of an amount never said is no consent to it; other terms the
 * conversation leaves unsaid ('unsure') do not, since a proposal need not spell out every detail.
 *
 * @example
 * ```ts
 * return unconfirmed(context, 'cancel_order', { action: /\bcancel/, details: [args.order_id] },
 *   (earlier) => earlier.order_id === args.order_id);
 * ```
 */
export function unconfirmed(
  context: GuardContext,
  tool: string,
  { action, details }: ConfirmedAction,
  sameTarget: (earlierArguments: Record<string, unknown>) => boolean,
  terms?: AgreementTerms,
): PolicyFinding | undefined {
  const agreement = context.conversation.agreed(
    { tool, names: details.filter((detail) => detail !== ''), action, sameTarget },
    terms,
  );
  const finding = decide(agreement, {
    need: 'the user has not explicitly confirmed this action; list the action details and ask for a yes first',
    question: 'Did the user explicitly confirm this action?',
    missingDenies: agreement.replies.length === 0,
  });
  if (finding !== undefined) return finding;
  const broken = termBroken(agreement);
  if (broken !== undefined) {
    return {
      message: `the call is not what the user agreed to: ${broken}; list the action as the call makes it and ask again`,
    };
  }
  if (terms?.amount === undefined || agreement.amount?.answer !== 'unsure') return undefined;
  const { amount, description } = terms.amount;
  const written = `${description.currency[0] ?? ''}${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
  return {
    message: `the user was not told the amount the call moves (${written}): ${agreement.amount.reason ?? 'no amount was stated'}; state it and ask again`,
    facts: { amount, answer: 'unsure', evidence: agreement.amount.evidence },
    ask: `The call moves ${written}. Did the user agree to that amount?`,
  };
}

/**
 * Whether the user chose or named a value the call uses (how it pays, where it ships): 'yes' when the user's own words
 * name it (\`Conversation.stated\`) or the user said yes to a proposal that names it (\`Conversation.agreed\` with the
 * value as a term); 'no' when either names another; else 'unsure'. Agreeing to "… paid with your voucher. Shall I
 * go ahead?" chooses the voucher as much as saying "use my voucher".
 *
 * @example
 * ```ts
 * const fact = valueChosen(context, { tool: 'place_order', names: [args.order_id] },
 *   { value: args.payment_id, kind: 'payment_method', records }, domain);
 * return decide(fact, { need: 'the user must choose how to pay', question: 'Did the user choose this payment method?' });
 * ```
 */
export function valueChosen(
  context: GuardContext,
  call: ProposedCall,
  value: StatedValue,
  domain?: DomainDescription,
  terms?: Omit<AgreementTerms, 'values' | 'domain'>,
): ValueFact {
  const stated = context.conversation.stated(value, domain);
  if (stated.answer === 'yes') return stated;
  const agreed = context.conversation.agreed(call, {
    ...terms,
    values: [value],
    ...(domain === undefined ? {} : { domain }),
  }).values?.[0];
  if (agreed !== undefined && agreed.answer !== 'unsure') return agreed;
  return stated;
}
