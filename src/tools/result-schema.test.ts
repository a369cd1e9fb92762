import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaFromSample, withSampleResults } from './result-schema.ts';

describe('result schemas from samples', () => {
  it('learns field types, required fields and list items from one sample', () => {
    assert.deepEqual(schemaFromSample({ id: 'A1', total: 50, rate: 0.5, items: [{ sku: 'x' }, { sku: 'y', n: 1 }] }), {
      type: 'object',
      properties: {
        id: { type: 'string' },
        total: { type: 'integer' },
        rate: { type: 'number' },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, n: { type: 'integer' } },
            required: ['sku'],
          },
        },
      },
      required: ['id', 'total', 'rate', 'items'],
    });
  });
  it('fills in only tools without a result schema, and names samples of unknown tools', () => {
    const tools = [
      { name: 'get_order', description: '', parameters: {}, readOnly: true },
      { name: 'get_user', description: '', parameters: {}, readOnly: true, returns: { type: 'object' } },
    ];
    const result = withSampleResults(tools, {
      get_order: [
        { total: 5, payments: { card_1: { amount: 5 } } },
        { total: 7, payments: {}, note: 'gift' },
      ],
      get_user: [{ id: 'u' }],
      get_cart: [{}],
    });
    assert.deepEqual(result.learned, ['get_order']);
    assert.deepEqual(result.unknown, ['get_cart']);
    assert.deepEqual(result.tools[1]?.returns, { type: 'object' });
    assert.deepEqual(result.tools[0]?.returns, {
      type: 'object',
      properties: {
        total: { type: 'integer' },
        payments: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] },
        },
        note: { type: 'string' },
      },
      required: ['total', 'payments'],
    });
  });
});
