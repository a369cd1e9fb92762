import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { says } from 'agentguard/testing';
import { checks } from '../guards/update_reservation_passengers.ts';
import type { UpdateReservationPassengersArgs } from '../types.ts';
import { context, decide, dialogue } from './fixtures.ts';

const tool = 'update_reservation_passengers';
const base: UpdateReservationPassengersArgs = {
  reservation_id: 'ABC123',
  passengers: [{ first_name: 'Maya', last_name: 'Li', dob: '1990-04-05' }],
};
const proposal = 'I will change the passenger on ABC123 to Maya Li, born 1990-04-05. Is that correct?';
const run = (
  policy: string,
  args: Partial<UpdateReservationPassengersArgs> = {},
  guard = context(dialogue(proposal)),
) => decide(checks, policy, tool, { ...base, ...args }, guard);

describe('update_reservation_passengers', () => {
  for (const policy of Object.keys(checks)) {
    it(`${policy} complies on a careful update`, async () => assert.equal(await run(policy), undefined));
  }
  it('passengers.user_confirmation: violated without a yes', async () => {
    const guard = context([says.user('I am mia_li_3668, rename the passenger on ABC123 to Maya.')]);
    assert.match((await run('passengers.user_confirmation', {}, guard))?.message ?? '', /not explicitly confirmed/);
  });
  it('passengers.user_id_obtained: violated without the owner id', async () => {
    const guard = context([says.user('Rename the passenger on ABC123.')]);
    assert.match((await run('passengers.user_id_obtained', {}, guard))?.message ?? '', /has not given/);
  });
  it('passengers.count_unchanged: violated by adding a passenger', async () => {
    const passengers = [...base.passengers, { first_name: 'Ann', last_name: 'Li', dob: '1992-01-01' }];
    assert.match((await run('passengers.count_unchanged', { passengers }))?.message ?? '', /cannot change/);
  });
  it('passengers.details: violated by a missing last name', async () => {
    const passengers = [{ first_name: 'Maya', last_name: ' ', dob: '1990-04-05' }];
    assert.match((await run('passengers.details', { passengers }))?.message ?? '', /passenger 1/);
  });
});
