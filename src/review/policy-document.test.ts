import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markDocument } from './policy-document.ts';

const document = `# Refunds

Refunds go to the card. They take a week.

- Cancel only unflown trips. Ask why first.
  - Business trips can always be cancelled.

Nothing else applies.`;

describe('markDocument', () => {
  it('splits headings, paragraphs and nested items into sentences and marks what each reference overlaps', () => {
    const marked = markDocument(document, [
      { policy: 'refund.card', references: ['Refunds go to the card.'] },
      { policy: 'cancel.unflown', references: ['only unflown trips'] },
      { policy: 'cancel.reason', references: ['unflown trips. Ask why'] },
      { policy: 'cancel.business', references: ['Business  trips can\n always be cancelled.', 'Refunds are instant.'] },
    ]);
    assert.deepEqual(
      marked.blocks.map((block) => [block.kind, block.level, block.sentences.map((s) => [s.text, s.citedBy])]),
      [
        ['heading', 1, [['Refunds', []]]],
        [
          'paragraph',
          0,
          [
            ['Refunds go to the card.', ['refund.card']],
            ['They take a week.', []],
          ],
        ],
        [
          'item',
          0,
          [
            ['Cancel only unflown trips.', ['cancel.unflown', 'cancel.reason']],
            ['Ask why first.', ['cancel.reason']],
          ],
        ],
        ['item', 1, [['Business trips can always be cancelled.', ['cancel.business']]]],
        ['paragraph', 0, [['Nothing else applies.', []]]],
      ],
    );
    assert.deepEqual(marked.unmatched, [{ policy: 'cancel.business', reference: 'Refunds are instant.' }]);
    assert.deepEqual(
      marked.blocks.flatMap((block) => block.sentences.map((sentence) => sentence.index)),
      [0, 1, 2, 3, 4, 5, 6],
    );
  });
});
