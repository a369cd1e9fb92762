import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readsMessageText } from './text-matching.ts';

describe('readsMessageText', () => {
  it('flags a check that matches message text itself, with the lines', () => {
    const code = [
      "import type { PolicyCheck } from 'agentguard';",
      '// the user said insurance: reads .text? not in a comment',
      'export const check: PolicyCheck<{ insurance: string }> = (args, context) => {',
      "  const said = context.conversation.userTexts().join(' ').toLowerCase();",
      "  return said.includes('insurance') ? undefined : { message: 'no insurance choice' };",
      '};',
    ].join('\n');
    assert.deepEqual(readsMessageText(code), [
      "4: const said = context.conversation.userTexts().join(' ').toLowerCase();",
    ]);
  });
  it('lets a check that asks the conversation its questions pass', () => {
    const code = [
      "import { decide } from '../lib/dialogue.ts';",
      'export const check = (args, context) =>',
      "  decide(context.conversation.chose({ about: ['insurance'], options: {}, value: args.insurance }), { need: 'x', question: 'y' });",
    ].join('\n');
    assert.deepEqual(readsMessageText(code), []);
  });
});
