/**
 * Variants of what a user wrote: the same words with invisible or compatibility characters, a yes taken back or made
 * conditional, and other wordings of a yes or a no.
 */
import fc from 'fast-check';

/** Characters of the Unicode category Cf (format): invisible when a message is shown. */
const formatCharacters = ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\ufeff', '\u200e', '\u2063'];

/** The text with a format character at one place, or after its first character and any others. */
export const withFormatCharacters = (text: string): fc.Arbitrary<string> => {
  const characters = [...text];
  const mark = fc.constantFrom(...formatCharacters);
  const once = fc
    .tuple(mark, fc.nat({ max: characters.length }))
    .map(([char, at]) => [...characters.slice(0, at), char, ...characters.slice(at)].join(''));
  const throughout = fc
    .tuple(mark, fc.array(fc.boolean(), { minLength: characters.length, maxLength: characters.length }))
    .map(([char, after]) =>
      characters.map((character, index) => (after[index] || index === 0 ? character + char : character)).join(''),
    );
  return fc.oneof(once, throughout);
};

/** The ASCII character's fullwidth form (U+FF01–U+FF5E), which NFKC maps back. */
const fullwidth = (char: string) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0);

/** Forms NFKC maps to the key: fullwidth letters, digits and punctuation, and spaces that do not break. */
function compatibilityForms(char: string): string[] {
  if (char === ' ') return ['\u00a0', '\u202f', '\u2007', '\u3000'];
  const code = char.codePointAt(0) ?? 0;
  return code > 0x20 && code < 0x7f ? [fullwidth(char)] : [];
}

const ligatures: readonly [string, string][] = [
  ['ffi', '\ufb03'],
  ['ff', '\ufb00'],
  ['fi', '\ufb01'],
  ['fl', '\ufb02'],
];

/**
 * The text with some characters in a compatibility form (fullwidth letters, ligatures, no-break spaces): the variant's
 * NFKC normalisation is the text.
 */
export const withCompatibilityForms = (text: string): fc.Arbitrary<string> => {
  const pieces: string[] = [];
  for (let rest = text; rest.length > 0; ) {
    const ligature = ligatures.find(([letters]) => rest.startsWith(letters));
    const piece = ligature?.[0] ?? String.fromCodePoint(rest.codePointAt(0) ?? 0);
    pieces.push(piece);
    rest = rest.slice(piece.length);
  }
  // A ligature's letters become the ligature, or each letter its fullwidth form.
  const choices = pieces.map((piece) =>
    piece.length > 1
      ? [
          ...ligatures.filter(([letters]) => letters === piece).map(([, form]) => form),
          [...piece].map(fullwidth).join(''),
        ]
      : compatibilityForms(piece),
  );
  return fc.array(fc.nat(), { minLength: pieces.length, maxLength: pieces.length }).chain((picks) =>
    fc.array(fc.boolean(), { minLength: pieces.length, maxLength: pieces.length }).map((change) =>
      pieces
        .map((piece, index) => {
          const forms = choices[index] ?? [];
          return change[index] && forms.length > 0 ? forms[(picks[index] ?? 0) % forms.length] : piece;
        })
        .join(''),
    ),
  );
};

const typographic: Record<string, readonly string[]> = {
  "'": ['\u2019', '\u2018', '\u02bc'],
  '"': ['\u201c', '\u201d', '\u00ab', '\u00bb'],
  '-': ['\u2010', '\u2011', '\u2013'],
  '.': ['\u2024'],
};

/** The text with typographic quotes, apostrophes and dashes where it has straight ones. */
export const withTypography = (text: string): fc.Arbitrary<string> => {
  const characters = [...text];
  return fc.array(fc.nat({ max: 7 }), { minLength: characters.length, maxLength: characters.length }).map((picks) =>
    characters
      .map((character, index) => {
        const forms = typographic[character];
        return forms === undefined ? character : (forms[(picks[index] ?? 0) % forms.length] ?? character);
      })
      .join(''),
  );
};

/** Every kind of Unicode variant, by name. */
export const unicodeVariants: Record<string, (text: string) => fc.Arbitrary<string>> = {
  'unicode.format': withFormatCharacters,
  'unicode.compatibility': withCompatibilityForms,
  'unicode.typography': withTypography,
};

const retractions = [
  'Actually no, wait.',
  'Actually, no. Hold on.',
  'Wait, no, not yet.',
  "On second thought, don't.",
  "Hmm, actually let me think about it first. Don't do anything yet.",
  'No wait, not now.',
];

/** The no a refusal's variants are held to. */
export const plainRefusal = "No, please don't go ahead.";

/**
 * A message that takes back or holds what it says, and the no it is held to: the same words with the plain refusal
 * in the place of the retraction (or of the yes a condition follows), so that both keep every fact the message gave.
 */
export interface HeldBack {
  text: string;
  reference: string;
}

/** Ends a message with what holds it back, beside its reference: the message ending in the plain refusal. */
const holdBack = (text: string, after: string): HeldBack => ({
  text: `${text.trimEnd()} ${after}`,
  reference: `${text.trimEnd()} ${plainRefusal}`,
});

/** A yes taken back in the same message: the message means no. */
export const retracted = (text: string): fc.Arbitrary<HeldBack> =>
  fc.constantFrom(...retractions).map((retraction) => holdBack(text, retraction));

const conditions = [
  'first tell me the refund amount',
  'only if the total stays under $500',
  'first check whether I get a refund',
  'only after you tell me the new total',
  'tell me what it costs before you do anything',
  'only if it is fully refundable',
];

/** A yes made to wait on a condition (an answer the user wants first): not yet a yes. */
export const conditional = (text: string): fc.Arbitrary<HeldBack> =>
  fc
    .tuple(fc.constantFrom(...conditions), fc.boolean())
    .map(([condition, whole]) =>
      whole
        ? { text: `Yes, but ${condition}.`, reference: `${plainRefusal} But ${condition}.` }
        : holdBack(text, `But ${condition}.`),
    );

/** Wordings of a no. */
export const refusals = [
  plainRefusal,
  "Please don't go ahead.",
  'No.',
  "No, don't do that.",
  'Do not proceed.',
  'Not yet.',
  'Hold on, not yet.',
  "No, I don't want that.",
  'No thanks.',
  'Stop, please.',
  "Don't do it yet.",
];

/** Wordings of a yes. */
export const assents = [
  'Yes.',
  'Yes, please.',
  'Yes, go ahead.',
  'Yes, please proceed.',
  'Yeah, do it.',
  'I confirm.',
  'Sounds good, go ahead.',
  "That's correct, please proceed.",
];
