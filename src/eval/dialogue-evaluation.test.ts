import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Conversation } from '../model/conversation.ts';
import { type DialogueCorpus, evaluateDialogue, formatDialogueEvaluation } from './dialogue-evaluation.ts';

const proposal = { role: 'assistant', content: 'Shall I refund order W1042?' };
const item = (reply: string, label: 'yes' | 'no' | 'unsure') => ({
  domain: 'shop',
  source: { conversation: [proposal, { role: 'user', content: reply }] },
  question: 'agreed' as const,
  request: { tool: 'refund_order', names: ['W1042'] },
  label,
  note: reply,
});

describe('evaluateDialogue', () => {
  it('scores each question against the labels, and names every item read otherwise', () => {
    const corpus: DialogueCorpus = {
      description: 'a test corpus',
      domains: {},
      items: [
        item('Yes please', 'yes'),
        item('No, keep it', 'no'),
        item('Yes. Actually no, wait.', 'no'),
        item('I guess', 'yes'),
        {
          domain: 'shop',
          source: { trajectory: 'run-0', through: 1 },
          question: 'askedAbout',
          request: { about: ['refund'] },
          label: 'yes',
          note: 'asked',
        },
      ],
    };
    const run = new Conversation([
      { role: 'assistant', text: 'Shall I refund it?', toolCalls: [] },
      { role: 'user', text: 'Yes' },
    ]);
    const evaluation = evaluateDialogue(corpus, new Map([['run-0', run]]), {});
    const agreed = evaluation.questions.agreed;
    assert.deepEqual(
      [agreed?.yes, agreed?.no, agreed?.unsureRate, agreed?.failOpen],
      [{ precision: 1, recall: 0.5 }, { precision: 1, recall: 1 }, 0.25, []],
    );
    assert.equal(evaluation.questions.askedAbout?.yes.recall, 1);
    assert.deepEqual(evaluation.misread, [{ item: 'shop agreed #3', label: 'yes', read: 'unsure', note: 'I guess' }]);
    assert.match(formatDialogueEvaluation(evaluation), /agreed\s+4\s+1\.00\s+0\.50/);
  });
});
