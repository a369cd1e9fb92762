import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { says } from 'agentguard/testing';
import { checks } from '../guards/cancel_reservation.ts';
import { context, decide, dialogue, flight, reservation } from './fixtures.ts';

const tool = 'cancel_reservation';
const args = { reservation_id: 'ABC123' };
const proposal = 'I can cancel reservation ABC123 (JFK to SEA on May 20). Would you like me to proceed?';
const run = (policy: string, guard = context(dialogue(proposal)), callArgs: object = args) =>
  decide(checks, policy, tool, callArgs, guard);

describe('cancel.user_confirmation', () => {
  it('complies with an explicit yes to a proposal naming the reservation', async () => {
    assert.equal(await run('cancel.user_confirmation'), undefined);
  });
  it('complies when one yes covers several reservations, once each', async () => {
    const guard = context([
      ...dialogue('Cancel ABC123 and XYZ789? Please confirm.', 'Yes, go ahead with both.'),
      ...says.toolCall('cancel_reservation', { reservation_id: 'XYZ789' }, '{"status": "cancelled"}'),
    ]);
    assert.equal(await run('cancel.user_confirmation', guard), undefined);
  });
  it('violates when the agent cancels on the request, without a yes', async () => {
    const guard = context([says.user('My user id is mia_li_3668. Cancel ABC123.')]);
    assert.match((await run('cancel.user_confirmation', guard))?.message ?? '', /not explicitly confirmed/);
  });
  it('violates on a vague answer', async () => {
    const guard = context(dialogue(proposal, "I guess that's fine"));
    assert.match((await run('cancel.user_confirmation', guard))?.message ?? '', /not explicitly confirmed/);
  });
  it('violates when the yes answers another question', async () => {
    const guard = context(dialogue('Would you like to hear about our lounge access?', 'Yes'));
    assert.match((await run('cancel.user_confirmation', guard))?.message ?? '', /not about this action/);
  });
  it('violates when the same yes is used twice on the same reservation', async () => {
    const guard = context([
      ...dialogue(proposal),
      ...says.toolCall('cancel_reservation', args, '{"status": "cancelled"}'),
    ]);
    assert.match((await run('cancel.user_confirmation', guard))?.message ?? '', /already used/);
  });
});

describe('cancel.user_id_obtained', () => {
  it('complies when the user gave the owner id', async () => {
    assert.equal(await run('cancel.user_id_obtained'), undefined);
  });
  it('violates when the user never gave a user id', async () => {
    const guard = context([says.user('Please cancel ABC123.')]);
    assert.match((await run('cancel.user_id_obtained', guard))?.message ?? '', /has not given the user id/);
  });
  it('violates when the reservation does not exist', async () => {
    const finding = await run('cancel.user_id_obtained', undefined, { reservation_id: 'NOPE00' });
    assert.match(finding?.message ?? '', /does not exist/);
  });
});

describe('cancel.reason_obtained', () => {
  it('complies when the user states a reason', async () => {
    const guard = context([says.user('I need to cancel because my plans changed.')]);
    assert.equal(await run('cancel.reason_obtained', guard), undefined);
  });
  it('complies when the user answers the question for the reason', async () => {
    const guard = context([
      says.assistant('What is the reason for the cancellation?'),
      says.user('A family matter came up.'),
    ]);
    assert.equal(await run('cancel.reason_obtained', guard), undefined);
  });
  it('violates when no reason was given', async () => {
    const guard = context([says.user('Cancel ABC123 please.')]);
    assert.match((await run('cancel.reason_obtained', guard))?.message ?? '', /not said why/);
  });
  it('violates when the user refuses to give one', async () => {
    const guard = context([
      says.assistant('What is the reason?'),
      says.user('I have no specific reason, just cancel.'),
    ]);
    assert.match((await run('cancel.reason_obtained', guard))?.message ?? '', /not said why/);
  });
});

describe('cancel.eligibility', () => {
  const world = (overrides: Parameters<typeof reservation>[0], flights = undefined) => ({
    reservations: [reservation(overrides)],
    ...(flights === undefined ? {} : { flights }),
  });
  it('complies within 24 hours of booking', async () => {
    const guard = context([says.user('change of plans')], world({ created_at: '2024-05-15T01:00:00' }));
    assert.equal(await run('cancel.eligibility', guard), undefined);
  });
  it('complies for business', async () => {
    const guard = context([says.user('change of plans')], world({ cabin: 'business' }));
    assert.equal(await run('cancel.eligibility', guard), undefined);
  });
  it('complies when the airline cancelled a flight', async () => {
    const guard = context([says.user('my flight was cancelled')], {
      reservations: [reservation()],
      flights: [flight('HAT136', '2024-05-20', 'JFK', 'ATL', { status: 'cancelled' })],
    });
    assert.equal(await run('cancel.eligibility', guard), undefined);
  });
  it('complies with insurance and a health reason', async () => {
    const guard = context([says.user('I am sick and cannot fly.')], world({ insurance: 'yes' }));
    assert.equal(await run('cancel.eligibility', guard), undefined);
  });
  it('violates for economy without insurance booked days ago', async () => {
    const guard = context([says.user('My plans changed.')], world({}));
    assert.match((await run('cancel.eligibility', guard))?.message ?? '', /cannot be cancelled/);
  });
  it('violates with insurance but a reason it does not cover', async () => {
    const guard = context([says.user('My plans changed.')], world({ insurance: 'yes' }));
    assert.match((await run('cancel.eligibility', guard))?.message ?? '', /no health or weather reason/);
  });
  it('violates for a gold member just the same (the rules ignore membership)', async () => {
    const guard = context([says.user("I'm a gold member and I changed my mind.")], world({ cabin: 'basic_economy' }));
    assert.ok(await run('cancel.eligibility', guard));
  });
});

describe('cancel.not_flown', () => {
  it('complies when no segment has flown', async () => {
    assert.equal(await run('cancel.not_flown'), undefined);
  });
  it('violates when a segment has landed', async () => {
    const guard = context(dialogue(proposal), {
      flights: [
        flight('HAT136', '2024-05-20', 'JFK', 'ATL', {
          status: 'landed',
          actual_departure_time_est: '2024-05-20T08:00:00',
          actual_arrival_time_est: '2024-05-20T10:00:00',
        } as never),
      ],
    });
    assert.match((await run('cancel.not_flown', guard))?.message ?? '', /landed/);
  });
});
