import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { highlightTypeScript } from './assets/highlight.js';

describe('highlightTypeScript', () => {
  it('classifies comments, strings, template literals, numbers, keywords and types', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source as data
    const source = "// note\nexport const check: PolicyCheck = async (args) => `n ${args.n}` + 'x' + 42; /* end */";
    const kinds = highlightTypeScript(source)
      .filter((token) => token.kind !== 'space' && token.kind !== 'punctuation')
      .map((token) => `${token.kind}:${token.text}`);
    assert.deepEqual(kinds, [
      'comment:// note',
      'keyword:export',
      'keyword:const',
      'name:check',
      'type:PolicyCheck',
      'keyword:async',
      'name:args',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a token of that source
      'string:`n ${args.n}`',
      "string:'x'",
      'number:42',
      'comment:/* end */',
    ]);
  });
  it('gives back every character of a real guard, unterminated strings and comments included', async () => {
    const guard = await readFile(new URL('../../packs/tau-airline/guards/lib/airline.ts', import.meta.url), 'utf8');
    for (const source of [guard, "const a = 'open", 'x /* open', 'const t = `open ${']) {
      assert.equal(
        highlightTypeScript(source)
          .map((token) => token.text)
          .join(''),
        source,
      );
    }
  });
});
