import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardApiDeclarations } from './guard-api.ts';
import { GuardTypeChecker } from './type-checker.ts';

describe('guardApiDeclarations', () => {
  it("match agentguard's own types, member for member", () => {
    const same = (name: string, real = `real.${name}`) =>
      `export const same${name.replace(/\W.*/, '')}: Same<shown.${name}, ${real}> = true;`;
    const files = new Map([
      ['shown.ts', guardApiDeclarations],
      [
        'compare.ts',
        [
          "import type * as real from 'agentguard';",
          "import type * as shown from './shown.ts';",
          'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
          ...[
            'PolicyFinding',
            'ToolCall',
            'Message',
            'PastToolCall',
            'Confirmation',
            'ToolInvoker',
            'Answer',
            'Evidence',
            'Fact',
            'ValueFact',
            'ProposedCall',
            'AmountDescription',
            'AgreedAmount',
            'ListedItems',
            'AgreementTerms',
            'Agreement',
            'ReasonOptions',
            'StatedValue',
            'OfferedChoice',
            'ValueKind',
            'DomainDescription',
          ].map((name) => same(name)),
          // A check written against the declarations shown is a real check.
          'export const checkAccepted: real.PolicyCheck<{ n: number }> = {} as shown.PolicyCheck<{ n: number }>;',
          'export const sameConversationMembers: Same<keyof shown.Conversation, keyof real.Conversation> = true;',
          // The real class has private members, so only one direction holds: it offers everything shown.
          'export const conversationOffersShown: shown.Conversation = {} as real.Conversation;',
          "export const sameContext: Same<Omit<shown.GuardContext, 'conversation'>, Omit<real.GuardContext, 'conversation'>> = true;",
        ].join('\n'),
      ],
    ]);
    assert.deepEqual(new GuardTypeChecker().check(files, ['compare.ts']), []);
  });
});
