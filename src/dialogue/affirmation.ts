/**
 * Deterministic reading of yes and no in a conversation. The lexicon is small on purpose: a guard that must see an
 * explicit yes treats anything it does not recognise as no.
 */

const yes = new RegExp(
  [
    String.raw`\b(yes|yeah|yep|yup|oui|sí|si|ja)\b`,
    String.raw`\bi (do )?confirm\b`,
    String.raw`\bconfirm(ed|ing)?\b(?![^.!?]*\?)`,
    String.raw`\b(please )?(go ahead|proceed)\b(?![^.!?]*\?)`,
    String.raw`\b(sounds|looks) (good|great|perfect|correct|fine)\b`,
    String.raw`\b(that's|that is|it's|everything is|all) (correct|right|fine|good|perfect)\b`,
    String.raw`\b(let's|lets) (do it|do that|proceed)\b`,
    String.raw`\bplease do( it| that| so)?\b`,
    String.raw`^(ok|okay|absolutely|definitely)\b`,
  ].join('|'),
  'u',
);

const no = new RegExp(
  [
    String.raw`^(no|nope|nah|not yet|wait|hold on|hold off|never ?mind|stop)\b`,
    String.raw`\b(don't|do not|please don't|not) (proceed|go ahead|book|cancel|change|do (it|that))\b`,
  ].join('|'),
  'u',
);

/** Hedges make a mild yes ("I guess that's fine") not explicit; a plain yes or "please proceed" still counts. */
const hedge = /\b(i guess|i suppose|maybe|perhaps|probably|not sure|i think so)\b/u;
const plainYes = /\b(yes|yeah|yep|yup|oui|sí|si|ja|i (do )?confirm|go ahead|proceed)\b/u;

const request = /\?|\b(confirm|proceed|go ahead|shall i|should i|would you like|do you want|is (this|that) correct)\b/u;

function normalize(text: string): string {
  return text.toLowerCase().replaceAll('’', "'").trim();
}

/**
 * Remembers a pure reading of a text (up to 2,000 texts, then afresh): the messages of a conversation are read again
 * for every call, so each is read once.
 */
function remembered(read: (text: string) => boolean): (text: string) => boolean {
  const cache = new Map<string, boolean>();
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

const affirmative = remembered((text) => {
  const normalized = normalize(text);
  if (!yes.test(normalized) || no.test(normalized)) return false;
  return !hedge.test(normalized) || plainYes.test(normalized);
});
const refusing = remembered((text) => no.test(normalize(text)));
const asking = remembered((text) => request.test(normalize(text)));

/**
 * True when a user message explicitly agrees: a yes (or a clear equivalent such as "please proceed", "I confirm",
 * "sounds good"), no refusal, and no hedge unless a plain yes stands beside it.
 *
 * @example
 * ```ts
 * isAffirmative('Yes, please proceed.'); // true
 * isAffirmative('I guess that is fine'); // false
 * ```
 */
export function isAffirmative(text: string): boolean {
  return affirmative(text);
}

/**
 * True when a user message refuses or holds off ("no", "wait", "don't cancel it").
 *
 * @example
 * ```ts
 * isRefusal('No, please do not proceed.'); // true
 * isRefusal('Use the gift card instead.'); // false
 * ```
 */
export function isRefusal(text: string): boolean {
  return refusing(text);
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
