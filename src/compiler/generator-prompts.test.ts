import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import type { ToolPolicySpec } from '../pack/policy-spec.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { IsolateSandbox } from '../sandbox/isolate-sandbox.ts';
import { generatePack } from './generate-pack.ts';
import { compilerSettings } from './generator-prompts.ts';
import { guardApiDeclarations } from './guard-api.ts';
import { GuardTypeChecker } from './type-checker.ts';

const tools: ToolSpec[] = [
  {
    name: 'get_order',
    description: 'Get an order.',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    readOnly: true,
    returns: {
      type: 'object',
      properties: { total: { type: 'number' }, placed_at: { type: 'string' } },
      required: ['total', 'placed_at'],
    },
  },
  {
    name: 'get_weather',
    description: 'Unrelated lookup.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    readOnly: true,
  },
  {
    name: 'refund_order',
    description: 'Refund part of an order.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, amount: { type: 'number' } },
      required: ['order_id', 'amount'],
    },
    readOnly: false,
  },
];
const specs = new Map<string, ToolPolicySpec>([
  [
    'refund_order',
    {
      tool: 'refund_order',
      policies: [
        {
          id: 'refund.confirmed_recent',
          name: 'Confirmed refunds of recent orders',
          description: 'Refund only orders placed in the last 30 days, after the user confirms.',
          references: ['Refund only recent orders, after the user confirms.'],
          compliance_examples: ['a confirmed refund of an order placed yesterday'],
          violation_examples: ['a refund of an order placed two months ago', 'an unconfirmed refund'],
        },
        {
          id: 'refund.archived_rule',
          name: 'Be kind',
          description: 'Be kind.',
          references: ['Be kind.'],
          compliance_examples: [],
          violation_examples: [],
          archived: 'it concerns what the agent writes',
        },
      ],
    },
  ],
]);
const chat = (confirmed: boolean) => [
  { role: 'assistant', content: 'Shall I refund 20 dollars on order A1? Please confirm.' },
  { role: 'user', content: confirmed ? 'Yes, please.' : 'Hmm, let me think.' },
];
const order = (placed: string) => ({
  tool: 'get_order',
  arguments: { order_id: 'A1' },
  result: { total: 50, placed_at: placed },
});
const cases = JSON.stringify({
  cases: [
    {
      index: 0,
      arguments: { order_id: 'A1', amount: 20 },
      conversation: chat(true),
      lookups: [order('2024-05-14T10:00:00')],
    },
    {
      index: 1,
      arguments: { order_id: 'A1', amount: 20 },
      conversation: chat(true),
      lookups: [order('2024-03-01T10:00:00')],
    },
    {
      index: 2,
      arguments: { order_id: 'A1', amount: 20 },
      conversation: chat(false),
      lookups: [order('2024-05-14T10:00:00')],
    },
  ],
});
/** A check written with the shipped helpers only: typed lookup, zone-aware time, the confirmation reading. */
const code = JSON.stringify({
  code: `import type { PolicyCheck } from 'agentguard';
import type { RefundOrderArgs } from '../../types.ts';
import { unconfirmed } from '../lib/dialogue.ts';
import { lookup, timeOf } from '../lib/domain.ts';

export const check: PolicyCheck<RefundOrderArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order', { order_id: args.order_id });
  const ageDays = (context.now.getTime() - timeOf(order.placed_at)) / 86_400_000;
  if (ageDays > 30) return { message: \`order \${args.order_id} was placed \${order.placed_at}, more than 30 days ago\`, facts: { placed_at: order.placed_at } };
  return unconfirmed(context, 'refund_order', { action: /\\brefund/, details: [args.order_id] }, (earlier) => earlier.order_id === args.order_id);
};
`,
});

describe('the generator prompts', () => {
  it('state the API, settings, clock, zone, conventions and test cases, show only the types used, and offer the shipped helpers', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-prompts-'));
    const model = new ScriptedModel([
      JSON.stringify({ lookups: ['get_order'], reason: 'the order date' }),
      cases,
      code,
    ]);
    const reports = await generatePack({
      out,
      domain: 'shop',
      description: 'A shop.',
      policyDocument: 'Refund only recent orders, after the user confirms. Be kind.',
      clock: '2024-05-15T15:00:00-05:00',
      timeZone: '-05:00',
      tools,
      specs,
      model,
      budget: new Budget({ maxCalls: 10, maxTokens: 1e9 }),
      sandbox: new IsolateSandbox(),
      typeChecker: new GuardTypeChecker(),
    });
    assert.deepEqual(
      reports.map(({ policy, state, repairs }) => [policy, state, repairs]),
      [
        ['refund.confirmed_recent', 'enforced', 0],
        ['refund.archived_rule', 'archived', 0],
      ],
    );
    assert.equal(model.requests.length, 3, 'one call for lookups, one for all test cases, one for the code');
    const [, casesPrompt, codePrompt] = model.requests.map((request) => request.messages[0]?.content ?? '');
    for (const prompt of [casesPrompt, codePrompt]) {
      assert.match(prompt ?? '', /`context\.now` is 2024-05-15T15:00:00-05:00/);
      assert.match(prompt ?? '', /without a time zone in records and arguments are in the zone -05:00/);
      assert.match(prompt ?? '', /export interface GetOrderResult \{\n {2}total: number;\n {2}placed_at: string;/);
      assert.doesNotMatch(prompt ?? '', /GetWeatherArgs/, 'a lookup the policy does not use is not shown');
      assert.match(prompt ?? '', /need not repeat every argument/);
    }
    assert.match(casesPrompt ?? '', /It ends before the call being checked/);
    assert.match(casesPrompt ?? '', /the other policies of the tool are not checked/);
    assert.match(casesPrompt ?? '', /A lookup call the case does not list rejects with an error/);
    assert.match(casesPrompt ?? '', /`toolCalls` with parsed `arguments` for `tool_calls`/);
    assert.ok(codePrompt?.includes(guardApiDeclarations), 'the implementation prompt declares the guard API');
    assert.ok(codePrompt?.includes(compilerSettings), 'and states the compiler settings');
    assert.match(codePrompt ?? '', /exactOptionalPropertyTypes/);
    assert.match(codePrompt ?? '', /The test cases it must pass[\s\S]*"placed_at":"2024-03-01T10:00:00"/);
    assert.match(codePrompt ?? '', /A helper module of the pack, `guards\/lib\/domain\.ts`/);
    assert.match(codePrompt ?? '', /A helper module of the pack, `guards\/lib\/dialogue\.ts`/);
    // Conversation-dependent checks are steered to the readings the reviewed packs use.
    assert.match(codePrompt ?? '', /unconfirmed\(context, tool, \{ action, details \}, sameTarget, terms\)/);
    assert.match(codePrompt ?? '', /never in a second `agreed` whose `names` are a detail/);
    assert.match(codePrompt ?? '', /`valueChosen\(context, call, value, domain\)`/);
    assert.match(codePrompt ?? '', /`reasonGiven\(reasons, \{ asked: /);
    assert.match(codePrompt ?? '', /export function valueChosen\(/, 'the helper it names is offered');
    assert.match(await readFile(join(out, 'guards/lib/domain.ts'), 'utf8'), /export const timeZone = '-05:00';/);
  });
});
