import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalText } from './canonical-text.ts';

describe('canonicalText', () => {
  it('removes format and other invisible characters', () => {
    assert.equal(canonicalText('d\u200bo\u200cn\u200d\u2060\ufeff\u00adt \u202eok\u3164'), 'dont ok');
    assert.equal(canonicalText('go\ufe0f ahead\u{e0041}'), 'go ahead');
  });
  it('makes compatibility forms, quotes and dashes plain', () => {
    assert.equal(canonicalText('\uff39\uff45\uff53'), 'Yes');
    assert.equal(canonicalText('\u201cdon\u2019t\u201d \u2014 `no`'), "\"don't\" - 'no'");
    assert.equal(canonicalText('\ufb01ne \u2460'), 'fine 1');
  });
  it('collapses white space, keeping one line break where there was one', () => {
    assert.equal(canonicalText('  Yes,\u00a0\u3000please \t proceed \r\n\r\n Thanks  '), 'Yes, please proceed\nThanks');
  });
  it('keeps case and plain text as it is, and changes nothing when applied twice', () => {
    const plain = 'Shall I cancel ZFA04Y?\n1. Yes';
    assert.equal(canonicalText(plain), plain);
    for (const text of ['\u00b4no\u00b4 \u2033', 'e\u200b\u0301 \u2028 x', 'a \uffa0 b', 'ｄｏｎ’ｔ']) {
      assert.equal(canonicalText(canonicalText(text)), canonicalText(text), JSON.stringify(text));
    }
  });
});
