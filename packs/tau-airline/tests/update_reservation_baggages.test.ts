import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { says } from 'agentguard/testing';
import { checks } from '../guards/update_reservation_baggages.ts';
import type { UpdateReservationBaggagesArgs } from '../types.ts';
import { context, decide, dialogue, reservation, user } from './fixtures.ts';

const tool = 'update_reservation_baggages';
const base: UpdateReservationBaggagesArgs = {
  reservation_id: 'ABC123',
  total_baggages: 4,
  nonfree_baggages: 1,
  payment_id: 'gift_card_1',
};
const proposal = 'Adding 4 checked bags to ABC123: 3 are free for a gold member in economy, 1 costs $50. Proceed?';
const run = (policy: string, args: Partial<UpdateReservationBaggagesArgs> = {}, guard = context(dialogue(proposal))) =>
  decide(checks, policy, tool, { ...base, ...args }, guard);

describe('update_reservation_baggages', () => {
  for (const policy of Object.keys(checks)) {
    it(`${policy} complies on a careful update`, async () => assert.equal(await run(policy), undefined));
  }
  it('baggages.user_confirmation: violated without a yes', async () => {
    const guard = context([says.user('I am mia_li_3668, add 4 bags to ABC123')]);
    assert.match((await run('baggages.user_confirmation', {}, guard))?.message ?? '', /not explicitly confirmed/);
  });
  it('baggages.user_id_obtained: violated without the owner id', async () => {
    const guard = context([says.user('add bags to ABC123')]);
    assert.match((await run('baggages.user_id_obtained', {}, guard))?.message ?? '', /has not given the user id/);
  });
  it('baggages.no_removal: violated when bags are removed', async () => {
    const guard = context(dialogue(proposal), {
      reservations: [reservation({ total_baggages: 5, nonfree_baggages: 2 })],
    });
    assert.match((await run('baggages.no_removal', { total_baggages: 4 }, guard))?.message ?? '', /not removed/);
  });
  it('baggages.allowance: violated when a paid bag is booked as free', async () => {
    const guard = context(dialogue(proposal), { users: { mia_li_3668: user({ membership: 'regular' }) } });
    assert.match(
      (await run('baggages.allowance', { total_baggages: 2, nonfree_baggages: 0 }, guard))?.message ?? '',
      /means 1 paid/,
    );
  });
  it('baggages.payment_in_profile: violated by an unknown card', async () => {
    assert.match(
      (await run('baggages.payment_in_profile', { payment_id: 'credit_card_9' }))?.message ?? '',
      /not in the user's profile/,
    );
  });
});
