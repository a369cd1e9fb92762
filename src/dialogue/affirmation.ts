/**
 * Deterministic reading of the user's answer to the agent's proposal: yes, no or unsure, with the words that decided
 * it. A yes is clear only when nothing after it takes it back or makes it wait; whatever is neither a clear yes nor a
 * clear no is unsure, and a guard that must see a yes treats unsure as not yet.
 */
import { canonicalText } from './canonical-text.ts';

/** How a user message answers the agent's proposal. */
export type Answer = 'yes' | 'no' | 'unsure';

/** A user message's answer and the words of it that decided the answer, in the message's lower case canonical form. */
export interface ReplyReading {
  answer: Answer;
  /**
   * The words that decided: the yes; the refusal; the yes then the retraction or condition that undid it; the hedge;
   * the yes word that stands beside other matters. Empty when the message holds no answer at all.
   */
  words: readonly string[];
}

/** Not within a sentence that ends in a question mark: "Can we proceed without it?" asks, it does not agree. */
const stated = String.raw`(?![^.!?\n]*\?)`;

/** Words that agree whatever else the message says. */
const explicitYes = new RegExp(
  [
    String.raw`\b(yes|yeah|yep|yup|oui|sí|si|ja)\b`,
    String.raw`\bi (do )?confirm\b`,
    String.raw`\bconfirm(ed|ing)?\b${stated}`,
    String.raw`\b(please )?(go ahead|proceed|move forward|go for it)\b${stated}`,
    String.raw`\b(sounds|looks) (good|great|perfect|correct|fine|right|ok|okay)\b`,
    String.raw`\b(that's|that is|it's|everything is|everything's) (correct|right|fine|good|great|perfect)\b`,
    String.raw`\b(that|this|it) works( for me)?\b${stated}`,
    String.raw`\b(let's|lets) (do it|do that|proceed|go ahead)\b`,
    String.raw`\bplease do( it| that| so)?\b`,
    String.raw`(^|[.!?,;]\s*)(please )?(just )?do (it|that|so)\b${stated}`,
  ].join('|'),
  'gu',
);

/** Words that agree only when the message says nothing else: "Sure." agrees, "Sure, my user id is …" answers another question. */
const bareYes =
  /^(sure|sure thing|of course|ok|okay|alright|all right|absolutely|definitely|certainly|agreed|fine|great|perfect|right|correct|deal)\b/u;
/** What a bare yes may stand beside. */
const courtesy =
  /\b(sure( thing)?|of course|ok|okay|alright|all right|absolutely|definitely|certainly|agreed|fine|great|perfect|right|correct|deal|please|thanks|thank you( so much| very much)?|then|that's|that is|yes)\b/gu;

/** Refusals and holds, wherever they stand. */
const refusal = new RegExp(
  [
    String.raw`^(no(?! (problem|worries|doubt))|nope|nah|not yet|not now|wait|hold on|hold off|hang on|never ?mind|stop)\b`,
    String.raw`\b(don't|do not|please don't|not|never) (proceed|go ahead|book|cancel|change|upgrade|downgrade|update|charge|do (it|that|this))\b`,
    String.raw`\b(won't|will not|can't|cannot|can not|unable to|wouldn't|would not|don't want to|do not want to)( be able to)? (proceed|go ahead)\b`,
    String.raw`\b(i'd|i would) (rather|prefer) not\b`,
    String.raw`\bno,? thank(s| you)\b`,
    String.raw`\blet me think\b|\bi('ll| will) think about it\b|\b(i've |i have |i )?changed my mind\b|\bon second thoughts?\b`,
  ].join('|'),
  'u',
);

/** What, after a yes, takes it back. */
const retraction = new RegExp(
  [
    String.raw`\bactually,? no\b|\bno,? wait\b|(^|[.!?;,]\s*)no\s*([.!?;,]|$)`,
    String.raw`(?<!(can't|cannot|can not) )\bwait\b(?! (for|until|till|list))|\bhold (on|off)\b|\bhang on\b`,
    String.raw`\bnever ?mind\b|\bon second thoughts?\b|\bcancel that\s*([.!?;,]|$)|\b(scratch|forget) (that|it)\b|\bnot yet\b`,
    String.raw`\b(i've |i have |i )?changed my mind\b|\bi take (it|that) back\b`,
  ].join('|'),
  'u',
);

/** What makes a yes wait for something first, wherever it stands. */
const condition = new RegExp(
  [
    String.raw`(^|[.!?;,]\s*|\b(but|and) )first\b`,
    String.raw`\b(tell|show|give|let) me\b[^.!?\n]*\bfirst\b|\b(know|see|hear|confirm|check)\b[^.!?\n]*\bfirst\b`,
    String.raw`\bbefore (you|we|i) (do|go ahead|proceed|book|cancel|change|confirm|agree|decide|commit|make|finali[sz]e|complete)\b`,
    String.raw`\bbefore (that|doing (it|that|so)|proceeding|going ahead|booking|cancel\w*|chang\w*|confirming)\b`,
    String.raw`\b(only if|as long as|provided that|on (the )?condition|unless)\b|(^|[.!?;,]\s*)provided\b`,
    String.raw`\b(after|once|when) you (tell|let me know|confirm|check|show|give|send|explain)\b`,
    String.raw`\bbut\b[^.!\n]*\?`,
  ].join('|'),
  'u',
);

/** A question about what the action costs or returns: after an answer word alone, the yes waits for its answer. */
const termsQuestion =
  /\b(how much|what('s| is| are| would| will)( be)? the (total|cost|price|fee|fees|refund|charge|amount|difference|balance)|is there (a|any) (fee|charge|cost)|will i (get|be charged|be refunded))\b[^.!\n]*\?/u;

/** Hedges make a mild yes ("I guess that's fine") not clear; a plain yes or "please proceed" beside one still counts. */
const hedge = /\b(i guess|i suppose|maybe|perhaps|probably|not sure|i think so)\b/u;
const plainYes = /\b(yes|yeah|yep|yup|oui|sí|si|ja|i (do )?confirm|go ahead|proceed)\b/u;

const request = /\?|\b(confirm|proceed|go ahead|shall i|should i|would you like|do you want|is (this|that) correct)\b/u;

function normalize(text: string): string {
  return canonicalText(text).toLowerCase();
}

/**
 * Remembers a pure reading of a text (up to 2,000 texts, then afresh): the messages of a conversation are read again
 * for every call, so each is read once.
 */
function remembered<Value>(read: (text: string) => Value): (text: string) => Value {
  const cache = new Map<string, Value>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined) {
      value = read(text);
      if (cache.size >= 2_000) cache.clear();
      cache.set(text, value);
    }
    return value;
  };
}

const unsure = (...words: string[]): ReplyReading => ({ answer: 'unsure', words });
const no = (...words: string[]): ReplyReading => ({ answer: 'no', words });

const answerWord = /^(yes|yeah|yep|yup|oui|sí|si|ja)$/u;
const edges = /^[\s.!?,;]+|[\s.!?,;]+$/gu;

function read(text: string): ReplyReading {
  const said = normalize(text);
  const refused = refusal.exec(said);
  if (refused !== null) return no(refused[0].trim());
  const agreed = [...said.matchAll(explicitYes)];
  const bare = bareYes.exec(said);
  const yes = bare ?? agreed[0];
  if (yes === undefined) return unsure();
  const words = [...(bare === null ? [] : [bare]), ...agreed].map((match) => match[0].replace(edges, ''));
  const retracted = retraction.exec(said.slice(yes.index + yes[0].length));
  if (retracted !== null) return no(...words, retracted[0].replace(edges, ''));
  const waits = condition.exec(said);
  if (waits !== null) return no(...words, waits[0].replace(edges, ''));
  // A bare yes stands alone: nothing but courtesy and punctuation beside it.
  if (agreed.length === 0 && said.replace(courtesy, '').replace(/[\s.,!;:'"-]+/gu, '') !== '') {
    return unsure(...words);
  }
  if (agreed.every((match) => answerWord.test(match[0]))) {
    // An answer word alone, then a question about the terms: the yes waits for the answer.
    const asked = termsQuestion.exec(said.slice(yes.index + yes[0].length));
    if (asked !== null) return no(...words, asked[0]);
  }
  const hedged = hedge.exec(said);
  if (hedged !== null && !plainYes.test(said)) return unsure(...words, hedged[0]);
  return { answer: 'yes', words };
}

const replies = remembered(read);
const asking = remembered((text) => request.test(normalize(text)));

/**
 * Reads how a user message answers the agent's proposal. `yes` only for a clear yes ("yes", "sure", "of course", "go
 * for it", "do it", "alright", "sounds good", "please proceed", "I confirm") that nothing after takes back ("actually
 * no", "wait", "hold on", "never mind", "on second thought", "cancel that") or makes wait ("but first …", "only if",
 * "as long as", "after you tell me", a question the yes waits on); `no` for a refusal or hold, a retracted yes and a
 * conditional yes; `unsure` for everything else, such as a hedge ("I guess that's fine") or a "sure" that answers
 * another question ("Sure, my user id is …"). The text is read in its canonical form (see `canonicalText`).
 *
 * @example
 * ```ts
 * readReply('Yes, please proceed.'); // { answer: 'yes', words: ['yes', 'please proceed'] }
 * readReply('Yes. Actually no, wait.'); // { answer: 'no', words: ['yes', 'actually no'] }
 * readReply('Yes, but first tell me the refund amount.'); // { answer: 'no', words: ['yes', 'but first'] }
 * ```
 */
export function readReply(text: string): ReplyReading {
  return replies(text);
}

/**
 * True when a user message is a clear yes (see `readReply`).
 *
 * @example
 * ```ts
 * isAffirmative('Yes, please proceed.'); // true
 * isAffirmative('I guess that is fine'); // false
 * ```
 */
export function isAffirmative(text: string): boolean {
  return replies(text).answer === 'yes';
}

/**
 * True when an assistant message asks the user to confirm or choose: a question, or words such as "confirm" or
 * "would you like".
 *
 * @example
 * ```ts
 * asksForConfirmation('Shall I cancel reservation ZFA04Y?'); // true
 * ```
 */
export function asksForConfirmation(text: string): boolean {
  return asking(text);
}
