/**
 * The code blocks of a Markdown document, with the markers that say how a test runs them. A marker is an HTML comment
 * on the line before a block (blank lines between allowed), so it stays in the document for anyone to read:
 * `<!-- snippet: skip (why) -->` leaves the block unrun, the reason required; `<!-- snippet: continue -->` joins a
 * block to the one before it, as the rest of one program; `<!-- snippet: serving -->` marks one command that serves
 * until stopped, which a test starts, waits for and stops at the end of its section.
 */

/** One fenced code block. */
export interface Snippet {
  /** The line of the opening fence, counted from 1. */
  line: number;
  /** The fence's language: `ts`, `sh`, … (empty when none). */
  language: string;
  /** The block's text, without the fences. */
  code: string;
  /** The marker before it, if any. */
  marker?: { kind: 'skip'; reason: string } | { kind: 'continue' } | { kind: 'serving' };
  /** The `##` section it is in: its title, or empty before the first. */
  section: string;
}

const markerPattern = /^<!--\s*snippet:\s*(.*?)\s*-->$/;

function readMarker(text: string, line: number): Snippet['marker'] {
  const skip = /^skip \((.+)\)$/.exec(text);
  if (skip?.[1] !== undefined) return { kind: 'skip', reason: skip[1] };
  if (text === 'continue' || text === 'serving') return { kind: text };
  throw new Error(`line ${line}: unknown snippet marker \`${text}\`: use \`skip (why)\`, \`continue\` or \`serving\``);
}

/**
 * The fenced code blocks of `markdown` in order, each with its line, language, marker and section.
 *
 * @example
 * ```ts
 * const blocks = readmeSnippets(await readFile('README.md', 'utf8'));
 * ```
 */
export function readmeSnippets(markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  let section = '';
  let marker: Snippet['marker'];
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index] ?? '';
    const opening = /^```(\S*)\s*$/.exec(text);
    if (opening === null) {
      const found = markerPattern.exec(text.trim());
      if (found !== null) marker = readMarker(found[1] ?? '', index + 1);
      else if (text.trim() !== '') marker = undefined;
      if (text.startsWith('## ')) section = text.slice(3).trim();
      continue;
    }
    const closing = lines.findIndex((candidate, at) => at > index && /^```\s*$/.test(candidate));
    if (closing === -1) throw new Error(`line ${index + 1}: the code block is never closed`);
    snippets.push({
      line: index + 1,
      language: opening[1] ?? '',
      code: lines.slice(index + 1, closing).join('\n'),
      ...(marker === undefined ? {} : { marker }),
      section,
    });
    marker = undefined;
    index = closing;
  }
  return snippets;
}
