import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { domainDescriptionSource, draftDomainDescription } from './domain-description-draft.ts';

const lookup = (name: string, returns: Record<string, unknown>): ToolSpec => ({
  name,
  description: '',
  parameters: { type: 'object' },
  readOnly: true,
  returns,
});

describe('draftDomainDescription', () => {
  it('drafts a kind per record with an id: its name, digit and class fields, from the result schemas', () => {
    const user = lookup('get_user_details', {
      type: 'object',
      properties: {
        user_id: { type: 'string' },
        payment_methods: {
          type: 'object',
          additionalProperties: {
            anyOf: [
              {
                type: 'object',
                properties: {
                  id: { type: 'string' },
                  source: { type: 'string', enum: ['credit_card', 'gift_card'] },
                  last_four: { type: 'string' },
                },
              },
            ],
          },
        },
      },
    });
    const airports = lookup('list_all_airports', {
      type: 'array',
      items: { type: 'object', properties: { iata: { type: 'string' }, city: { type: 'string' } } },
    });
    assert.deepEqual(draftDomainDescription([user, airports]), {
      kinds: {
        user: { key: 'user_id' },
        payment_method: {
          key: 'id',
          digits: ['last_four'],
          classes: { field: 'source', phrases: { credit_card: ['credit card'], gift_card: ['gift card'] } },
        },
        airport: { key: 'iata', names: ['city'] },
      },
    });
  });
  it('writes the module a pack ships, typed by agentguard', () => {
    const source = domainDescriptionSource({ kinds: { airport: { key: 'iata', names: ['city'] } } });
    assert.match(source, /import type \{ DomainDescription \} from 'agentguard';/);
    assert.match(source, /export const domain: DomainDescription = \{\n {2}"kinds"/);
  });
});
