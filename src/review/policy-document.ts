import { blockSentences, documentBlocks } from '../compiler/map-policies.ts';

/** A sentence of the policy document and the policies whose references cite it. */
export interface DocumentSentence {
  /** Position among the document's sentences, from 0. */
  index: number;
  text: string;
  citedBy: string[];
}

/** A heading, list item or paragraph of the policy document, split into sentences as the reference check does. */
export interface DocumentBlock {
  kind: 'heading' | 'item' | 'paragraph';
  /** Heading level (1 for `#`), or list nesting depth (0 at the top); 0 for paragraphs. */
  level: number;
  sentences: DocumentSentence[];
}

/** The policy document marked with what cites each sentence. */
export interface MarkedDocument {
  blocks: DocumentBlock[];
  /** References that occur nowhere in the document (whitespace aside), by policy. */
  unmatched: { policy: string; reference: string }[];
}

/** A policy's id and its verbatim references into the document. */
export interface Citation {
  policy: string;
  references: readonly string[];
}

const collapse = (text: string) => text.replace(/\s+/g, ' ');

function blockShape(block: string): Pick<DocumentBlock, 'kind' | 'level'> {
  const heading = /^\s*(#+)\s/.exec(block);
  if (heading !== null) return { kind: 'heading', level: heading[1]?.length ?? 1 };
  const item = /^( *)[-*]\s/.exec(block);
  if (item !== null) return { kind: 'item', level: Math.floor((item[1]?.length ?? 0) / 2) };
  return { kind: 'paragraph', level: 0 };
}

/**
 * Splits a policy document into blocks and sentences the way the compiler's reference check does, and marks each
 * sentence with the policies whose references overlap it in the document (whitespace collapsed): a reference may
 * quote part of a sentence or span several.
 *
 * @example
 * ```ts
 * const marked = markDocument(pack.policyDocument, [{ policy: 'cancel.not_flown', references: ['…'] }]);
 * ```
 */
export function markDocument(document: string, citations: readonly Citation[]): MarkedDocument {
  const flat = collapse(document);
  const spans: { start: number; end: number; sentence: DocumentSentence }[] = [];
  const blocks: DocumentBlock[] = [];
  let cursor = 0;
  for (const text of documentBlocks(document)) {
    const sentences = blockSentences(text).map((sentence): DocumentSentence => {
      const entry = { index: spans.length, text: sentence, citedBy: [] };
      const start = flat.indexOf(sentence, cursor);
      if (start >= 0) cursor = start + sentence.length;
      spans.push({ start, end: start + sentence.length, sentence: entry });
      return entry;
    });
    if (sentences.length > 0) blocks.push({ ...blockShape(text), sentences });
  }
  const unmatched: MarkedDocument['unmatched'] = [];
  for (const { policy, references } of citations) {
    for (const reference of references) {
      const quoted = collapse(reference).trim();
      let found = false;
      for (let at = flat.indexOf(quoted); quoted !== '' && at >= 0; at = flat.indexOf(quoted, at + 1)) {
        found = true;
        for (const span of spans) {
          const overlaps = span.start >= 0 && span.start < at + quoted.length && at < span.end;
          if (overlaps && !span.sentence.citedBy.includes(policy)) span.sentence.citedBy.push(policy);
        }
      }
      if (!found) unmatched.push({ policy, reference });
    }
  }
  return { blocks, unmatched };
}
