/**
 * A small shop domain for the compiler's tests: a lookup and a refund tool, a two-sentence policy, and scripted model
 * answers (test doubles, not model output) that walk the mapper and the generator through every path.
 */
import { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import type { ToolPolicySpec } from '../pack/policy-spec.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { IsolateSandbox } from '../sandbox/isolate-sandbox.ts';
import { generatePack } from './generate-pack.ts';
import { GuardTypeChecker } from './type-checker.ts';

/** A small shop domain: one lookup and one refund tool with two policies. */
export const shopTools: ToolSpec[] = [
  {
    name: 'get_order',
    description: 'Get an order.',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
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
const policy = (id: string, description: string) => ({
  id,
  name: id,
  description,
  references: [description],
  compliance_examples: [`${id} compliant`],
  violation_examples: [`${id} violating`],
});
/** The shop's tool-policy spec: a refund limit, and a rule no scripted implementation satisfies. */
export const shopSpecs = new Map<string, ToolPolicySpec>([
  [
    'refund_order',
    {
      tool: 'refund_order',
      policies: [
        policy('refund.limit', 'Refunds cannot exceed the order total.'),
        policy('refund.asked', 'Refund only what the user asked for.'),
      ],
    },
  ],
]);
const lookup = { tool: 'get_order', arguments: { order_id: 'A1' }, result: { total: 50 } };
/** One policy's test cases: the compliance example's amount, then the violation example's. */
const testCases = (...amounts: number[]) =>
  JSON.stringify({
    cases: amounts.map((amount, index) => ({
      index,
      arguments: { order_id: 'A1', amount },
      conversation: [],
      lookups: [lookup],
    })),
  });
const header =
  "import type { PolicyCheck } from 'agentguard';\nimport type { RefundOrderArgs } from '../../types.ts';\n";
const limitCode = (body: string) =>
  JSON.stringify({
    code: `${header}\nexport const check: PolicyCheck<RefundOrderArgs> = async (args, context) => {\n  const order = (await context.invoker.invoke('get_order', { order_id: args.order_id })) as { total: number };\n  ${body}\n};\n`,
  });
const never = JSON.stringify({
  code: `${header}\nexport const check: PolicyCheck<RefundOrderArgs> = () => undefined;\n`,
});

/** The scripted answers of a shop build that goes through every repair path. */
export const shopScript = [
  // refund.limit: lookups; its test cases (invalid JSON first); code with a type error, then a failing test, then
  // green.
  JSON.stringify({ lookups: ['get_order'], reason: 'the total is on the order' }),
  'this is not JSON',
  testCases(10, 60),
  limitCode("return args.amout > order.total ? { message: 'too much' } : undefined;"),
  limitCode("return args.amount < order.total ? { message: 'too much' } : undefined;"),
  limitCode(
    "return args.amount > order.total ? { message: 'refund ' + args.amount + ' is over the total ' + order.total } : undefined;",
  ),
  // refund.asked: never goes green.
  JSON.stringify({ lookups: [], reason: 'the conversation is enough' }),
  testCases(10, 20),
  never,
  never,
  never,
  never,
];

/** Generates the shop pack into `out` with `model`. */
export const buildShop = (out: string, model: LanguageModel, budget = new Budget({ maxCalls: 100, maxTokens: 1e9 })) =>
  generatePack({
    out,
    domain: 'shop',
    description: 'A shop.',
    policyDocument: 'Refunds cannot exceed the order total. Refund only what the user asked for.',
    tools: shopTools,
    specs: shopSpecs,
    model,
    budget,
    sandbox: new IsolateSandbox(),
    typeChecker: new GuardTypeChecker(),
  });

/** The shop's policy document. */
export const shopDocument =
  '# Shop policy\n\nRefunds cannot exceed the order total. Refund only what the user asked for.\n\n- Always be polite to customers.\n';
/** The shop's tools as the mapper sees them. */
export const mapTools: ToolSpec[] = [
  { name: 'get_order', description: 'Get an order.', parameters: { type: 'object' }, readOnly: true },
  { name: 'refund_order', description: 'Refund part of an order.', parameters: { type: 'object' }, readOnly: false },
];
const draft = (name: string, reference: string) => ({ name, description: `${name}.`, references: [reference] });
const limit = draft('Refund limit', 'Refunds cannot exceed the order total.');
const asked = draft('Asked amount', 'Refund only what the user asked fr.');
const polite = draft('Politeness', 'Always be polite to customers.');
const invented = draft('Sunday refunds', 'Refunds are free on Sundays.');
/** Examples by policy index: how many of each kind. */
const examples = (...counts: [index: number, count: number][]) =>
  JSON.stringify({
    examples: counts.map(([index, count]) => ({
      index,
      compliance_examples: Array.from({ length: count }, (_, item) => `ok ${index}.${item}`),
      violation_examples: Array.from({ length: count }, (_, item) => `bad ${index}.${item}`),
    })),
  });
const vote = (relevant: boolean[]) =>
  JSON.stringify({ votes: relevant.map((value, index) => ({ index, relevant: value, reason: 'r' })) });
/** Scripted mapper answers: reflection, a near-miss reference, split votes, archives, thin examples. */
export const mapScript = [
  JSON.stringify({ policies: [limit, polite] }),
  JSON.stringify({ policies: [asked] }),
  JSON.stringify({ policies: [] }),
  JSON.stringify({ policies: [limit, asked, polite, invented] }),
  vote([true, true, true, true]),
  vote([true, true, true, false]),
  vote([true, true, false, true]),
  JSON.stringify({
    reviews: [
      { index: 0, enforceable: true, reason: 'args and lookup' },
      { index: 1, enforceable: true, reason: 'conversation' },
      { index: 2, enforceable: false, reason: 'it concerns what the agent writes' },
    ],
  }),
  examples([0, 3], [1, 1]),
  examples([1, 2]),
];
