/** The variant generators keep what they promise: the same text, path or JSON value, spelt otherwise. */
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { withKeysReordered } from './argument-order.ts';
import { respelt } from './path-variants.ts';
import { seed } from './sampling.ts';
import {
  conditional,
  plainRefusal,
  retracted,
  withCompatibilityForms,
  withFormatCharacters,
  withTypography,
} from './text-variants.ts';

// The same seed as the variants, so that a run is reproduced by its seed (`METAMORPHIC_SEED`).
fc.configureGlobal({ seed });

const message = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 60 });

describe('metamorphic variant generators', () => {
  it('format characters leave the text the same once they are removed', () => {
    fc.assert(
      fc.property(
        message.chain((text) => fc.tuple(fc.constant(text), withFormatCharacters(text))),
        ([text, variant]) => variant !== text && variant.replace(/\p{Cf}/gu, '') === text,
      ),
    );
  });

  it('compatibility forms leave the NFKC normalisation the same', () => {
    fc.assert(
      fc.property(
        message.chain((text) => fc.tuple(fc.constant(text), withCompatibilityForms(text))),
        ([text, variant]) => variant.normalize('NFKC') === text.normalize('NFKC'),
      ),
    );
  });

  it('typography changes only quotes, apostrophes, hyphens and full stops', () => {
    fc.assert(
      fc.property(
        message.chain((text) => fc.tuple(fc.constant(text), withTypography(text))),
        ([text, variant]) =>
          variant.replace(/[\u2018\u2019\u02bc\u201c\u201d\u00ab\u00bb\u2010\u2011\u2013\u2024]/gu, '') ===
          text.replace(/['"\-.]/g, ''),
      ),
    );
  });

  it('a retraction or a condition keeps the yes it follows and adds to it', () => {
    for (const variant of fc.sample(retracted('Yes, go ahead.'), 20)) {
      assert.match(variant.text, /^Yes, go ahead\. \S/);
      assert.equal(variant.reference, `Yes, go ahead. ${plainRefusal}`);
    }
    for (const variant of fc.sample(conditional('Yes, go ahead.'), 20)) {
      assert.match(variant.text, /^Yes,? .*\b(but|But)\b/);
      const held = /^Yes, but (.*)$/.exec(variant.text);
      const expected = held === null ? `Yes, go ahead. ${plainRefusal}` : `${plainRefusal} But ${held[1]}`;
      assert.equal(variant.reference, expected);
    }
  });

  it('respelt paths resolve to the same path against the project folder', () => {
    const root = '/home/dev/project';
    const paths = fc.constantFrom(
      '.env',
      '/home/dev/project/id_rsa',
      'config/.env',
      '../other/notes.txt',
      '/etc/hosts',
    );
    fc.assert(
      fc.property(
        paths.chain((path) => fc.tuple(fc.constant(path), respelt(path, root))),
        ([path, variant]) => posix.resolve(root, variant) === posix.resolve(root, path),
      ),
    );
  });

  it('reordered arguments are the same JSON value', () => {
    const args = {
      reservation_id: 'ZFA04Y',
      flights: [{ flight_number: 'HAT001', date: '2024-05-20' }],
      cabin: 'economy',
    };
    for (const variant of fc.sample(withKeysReordered(args), 20)) assert.ok(isDeepStrictEqual(variant, args));
  });
});
