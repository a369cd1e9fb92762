import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { IsolateSandbox } from '../sandbox/isolate-sandbox.ts';
import { draftDomainDescription, kindFields } from './domain-description-draft.ts';
import { completeDomainDescription, domainProblems } from './domain-description-step.ts';
import { generatePack } from './generate-pack.ts';
import { shopScript, shopSpecs, shopTools } from './shop-fixture.ts';
import { GuardTypeChecker } from './type-checker.ts';

/** The shop's tools, with an order lookup whose result holds the order's payments. */
const tools: ToolSpec[] = shopTools.map((tool) =>
  tool.name !== 'get_order'
    ? tool
    : {
        ...tool,
        returns: {
          type: 'object',
          properties: {
            order_id: { type: 'string' },
            total: { type: 'number' },
            payments: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  payment_id: { type: 'string' },
                  method: { type: 'string', enum: ['voucher', 'card'] },
                  balance: { type: 'number' },
                },
              },
            },
          },
        },
      },
);

const additions = {
  kinds: {
    payment: {
      classes: { voucher: ['My Voucher', 'promo voucher'] },
      orders: [{ field: 'balance', lowest: ['smallest balance'] }],
      roles: { original: ['the original payment method', 'same card as before'] },
    },
  },
  amounts: { currency: ['$'], each: ['each', 'per item'] },
  reason: 'the refund policy speaks of the original payment method',
};

const build = (out: string, model: ScriptedModel, describeDomain?: boolean) =>
  generatePack({
    out,
    domain: 'shop',
    description: 'A shop.',
    policyDocument: 'Refunds go back to the original payment method and cannot exceed the order total.',
    tools,
    specs: shopSpecs,
    model,
    budget: new Budget({ maxCalls: 100, maxTokens: 1e9 }),
    sandbox: new IsolateSandbox(),
    typeChecker: new GuardTypeChecker(),
    ...(describeDomain === undefined ? {} : { describeDomain }),
  });

describe('the compiler domain step', () => {
  it('checks an answer against the kinds and their fields, and merges it into the draft', () => {
    const draft = draftDomainDescription(tools);
    const fields = kindFields(tools);
    assert.deepEqual(fields.payment, { payment_id: 'string', method: 'string', balance: 'number' });
    assert.deepEqual(
      domainProblems(draft, fields, {
        kinds: {
          parcel: {},
          payment: { names: ['colour'], orders: [{ field: 'method', lowest: ['first'] }] },
          order: { classes: { big: ['big order'] } },
        },
        reason: '',
      }),
      [
        'kinds.parcel: the draft has no kind `parcel`',
        'kinds.payment: `colour` is not a field of its records',
        'kinds.payment.orders: `method` is not a number field of its records',
        'kinds.order.classes: the kind has no class field',
      ],
    );
    assert.deepEqual(domainProblems(draft, fields, additions), []);
    assert.deepEqual(completeDomainDescription(draft, additions).kinds.payment, {
      key: 'payment_id',
      classes: { field: 'method', phrases: { voucher: ['voucher', 'my voucher', 'promo voucher'], card: ['card'] } },
      orders: [{ field: 'balance', lowest: ['smallest balance'] }],
      roles: { original: ['the original payment method', 'same card as before'] },
    });
  });

  it('asks once a build, retries an answer with its problems, and shows the completed description to the checks', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-domain-'));
    const wrong = JSON.stringify({ kinds: { payment: { names: ['colour'] } }, reason: 'guess' });
    const model = new ScriptedModel([wrong, JSON.stringify(additions), ...shopScript]);
    await build(out, model);
    assert.equal(model.requests[0]?.step, 'generate.domain_description@v2');
    assert.match(model.requests[0]?.messages[0]?.content ?? '', /Refunds go back to the original payment method/);
    assert.match(model.requests[1]?.messages.at(-1)?.content ?? '', /`colour` is not a field of its records/);
    const shipped = await readFile(join(out, 'guards/lib/domain-description.ts'), 'utf8');
    assert.match(shipped, /"original": \[\n\s+"the original payment method"/);
    assert.match(shipped, /export const amounts: AmountDescription = \{\n\s+"currency": \[\n\s+"\$"/);
    const implementation = model.requests.find((request) => request.step.startsWith('generate.implementation'));
    assert.match(implementation?.messages[0]?.content ?? '', /"smallest balance"/);

    // Built again, the pack's own description (a reviewer's, say) stands: no domain step.
    const again = new ScriptedModel(shopScript.slice(6));
    await build(out, again);
    assert.equal(
      again.requests.some((request) => request.step.startsWith('generate.domain_description')),
      false,
    );
  });

  it('keeps the draft as drafted when the step is turned off', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-domain-'));
    const model = new ScriptedModel(shopScript);
    await build(out, model, false);
    assert.equal(model.requests[0]?.step, 'generate.lookups@v2');
    const drafted = await readFile(join(out, 'guards/lib/domain-description.ts'), 'utf8');
    assert.doesNotMatch(drafted, /"roles"|amounts/);
  });
});
