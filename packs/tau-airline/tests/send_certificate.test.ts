import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { says } from 'agentguard/testing';
import { checks } from '../guards/send_certificate.ts';
import { context, decide, flight, reservation, user } from './fixtures.ts';

const tool = 'send_certificate';
const cancelledFlight = flight('HAT136', '2024-05-20', 'JFK', 'ATL', { status: 'cancelled' } as never);
const delayedFlight = flight('HAT136', '2024-05-20', 'JFK', 'ATL', { status: 'delayed' } as never);
const complaint = [
  says.user('I am mia_li_3668. My flight on ABC123 was cancelled and I missed a meeting. I want compensation.'),
];
const world = (membership: 'regular' | 'gold', flights = [cancelledFlight], overrides = {}) => ({
  users: { mia_li_3668: user({ membership }) },
  reservations: [reservation(overrides)],
  flights,
});
const run = (policy: string, amount: number, guard = context(complaint, world('gold'))) =>
  decide(checks, policy, tool, { user_id: 'mia_li_3668', amount }, guard);

describe('send_certificate', () => {
  for (const policy of Object.keys(checks)) {
    it(`${policy} complies with $100 per passenger for a cancelled flight of a gold member`, async () =>
      assert.equal(await run(policy, 100), undefined));
  }
  it('certificate.delay_after_change complies once the delayed reservation was changed', async () => {
    const guard = context(
      [
        says.user('I am mia_li_3668, my flight on ABC123 is delayed, I want to change it and get compensation.'),
        ...says.toolCall('update_reservation_flights', { reservation_id: 'ABC123' }, '{"reservation_id": "ABC123"}'),
      ],
      world('gold', [delayedFlight]),
    );
    assert.equal(await run('certificate.delay_after_change', 50, guard), undefined);
  });
  it('certificate.user_asked: violated when the user only complained', async () => {
    const guard = context([says.user('I am mia_li_3668 and my flight on ABC123 was cancelled!')], world('gold'));
    assert.match((await run('certificate.user_asked', 100, guard))?.message ?? '', /not asked for compensation/);
  });
  it('certificate.facts_confirmed: violated when nothing was cancelled or delayed', async () => {
    const guard = context(complaint, world('gold', []));
    assert.match((await run('certificate.facts_confirmed', 100, guard))?.message ?? '', /no reservation/);
  });
  it('certificate.eligible_user: violated for a regular member without insurance in economy', async () => {
    const guard = context(complaint, world('regular'));
    assert.match((await run('certificate.eligible_user', 100, guard))?.message ?? '', /regular member/);
  });
  it('certificate.eligible_user: complies for a regular member with insurance', async () => {
    const guard = context(complaint, world('regular', [cancelledFlight], { insurance: 'yes' }));
    assert.equal(await run('certificate.eligible_user', 100, guard), undefined);
  });
  it('certificate.amount: violated by $400 for one passenger', async () => {
    assert.match((await run('certificate.amount', 400))?.message ?? '', /matches no gesture/);
  });
  it('certificate.delay_after_change: violated when nothing was changed', async () => {
    const guard = context(complaint, world('gold', [delayedFlight]));
    assert.match(
      (await run('certificate.delay_after_change', 50, guard))?.message ?? '',
      /after the reservation was changed/,
    );
  });
});
