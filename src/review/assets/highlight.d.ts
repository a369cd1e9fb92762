/** A token of highlighted source text. */
export interface HighlightToken {
  kind: 'comment' | 'string' | 'number' | 'keyword' | 'type' | 'name' | 'space' | 'punctuation';
  text: string;
}

/** Splits TypeScript source into tokens a page can colour; joining the tokens gives the source back. */
export function highlightTypeScript(source: string): HighlightToken[];
