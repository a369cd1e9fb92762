import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { policyState } from './policy-state.ts';

describe('policyState', () => {
  const entry = { id: 'book.insurance', state: 'enforced', effect: 'deny' } as const;
  it('shows how often each answer came up on recorded runs', () => {
    const state = policyState(entry, undefined, {
      calls: 10,
      denied: 3,
      flagged: false,
      answers: { yes: 7, no: 1, unsure: 2 },
    });
    assert.deepEqual(
      state.notes.find((note) => note.label === 'answers'),
      { label: 'answers', text: 'yes 7, no 1 (denied), unsure 2 (asked) on recorded runs' },
    );
    assert.equal(state.label, 'enforced');
  });
  it('flags a check that reads message text itself, with its lines', () => {
    const state = policyState(entry, undefined, undefined, [
      "4: const said = context.conversation.userTexts().join(' ');",
    ]);
    assert.equal(state.label, 'enforced, flagged');
    assert.match(state.notes.at(-1)?.text ?? '', /matches message text itself.*userTexts/);
  });
  it('says beside the effect when an unsure fact denies, and nothing when it asks', () => {
    assert.deepEqual(policyState(entry, undefined, undefined, undefined, 'deny').notes.slice(0, 2), [
      { label: 'effect', text: 'denies the call' },
      { label: 'unsure fact', text: 'denies the call: the policy says a missing fact must deny' },
    ]);
    assert.deepEqual(policyState(entry, undefined, undefined, undefined, 'ask').notes, [
      { label: 'effect', text: 'denies the call' },
    ]);
  });
});
