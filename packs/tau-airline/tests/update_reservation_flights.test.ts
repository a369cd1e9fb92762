import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { says } from 'agentguard/testing';
import { checks } from '../guards/update_reservation_flights.ts';
import type { UpdateReservationFlightsArgs } from '../types.ts';
import { context, decide, dialogue, flight, reservation } from './fixtures.ts';

const tool = 'update_reservation_flights';
const base: UpdateReservationFlightsArgs = {
  reservation_id: 'ABC123',
  cabin: 'economy',
  flights: [{ flight_number: 'HAT600', date: '2024-05-21' }],
  payment_id: 'credit_card_1',
};
const proposal =
  'I will change ABC123 to the nonstop HAT600 on May 21; you get $200 back on your Visa. Shall I proceed?';
const run = (policy: string, args: Partial<UpdateReservationFlightsArgs> = {}, guard = context(dialogue(proposal))) =>
  decide(checks, policy, tool, { ...base, ...args }, guard);
const violation = async (
  policy: string,
  args: Partial<UpdateReservationFlightsArgs>,
  pattern: RegExp,
  guard = context(dialogue(proposal)),
) => assert.match((await run(policy, args, guard))?.message ?? '', pattern);

describe('update_reservation_flights policies comply on a careful change', () => {
  for (const policy of Object.keys(checks)) {
    it(policy, async () => assert.equal(await run(policy), undefined));
  }
  it('a basic economy reservation may change cabin on the same flights', async () => {
    const guard = context(dialogue('Upgrade ABC123 to economy on the same flights for $100. Proceed?'), {
      reservations: [reservation({ cabin: 'basic_economy' })],
    });
    const flights = reservation().flights.map(({ flight_number, date }) => ({ flight_number, date }));
    assert.equal(await run('flights.basic_economy_unchanged', { flights }, guard), undefined);
    assert.equal(await run('flights.new_flights_bookable', { flights }, guard), undefined);
  });
  it('kept segments need not be available when the cabin stays', async () => {
    const flights = reservation().flights.map(({ flight_number, date }) => ({ flight_number, date }));
    const guard = context(dialogue(proposal), { flights: [] });
    assert.equal(await run('flights.new_flights_bookable', { flights }, guard), undefined);
  });
});

describe('update_reservation_flights violations', () => {
  it('flights.user_confirmation: the user asked, the agent changed at once', async () => {
    const guard = context([says.user('I am mia_li_3668. Please move ABC123 to the nonstop on May 21.')]);
    await violation('flights.user_confirmation', {}, /not explicitly confirmed/, guard);
  });
  it('flights.user_id_obtained: another user id was given', async () => {
    const guard = context([says.user('I am sara_doe_496, change ABC123.')]);
    await violation('flights.user_id_obtained', {}, /has not given the user id/, guard);
  });
  it('flights.basic_economy_unchanged: new flights for basic economy', async () => {
    const guard = context(dialogue(proposal), { reservations: [reservation({ cabin: 'basic_economy' })] });
    await violation('flights.basic_economy_unchanged', { cabin: 'basic_economy' }, /basic economy/, guard);
  });
  it('flights.same_route_and_trip_type: a new destination', async () => {
    await violation(
      'flights.same_route_and_trip_type',
      { flights: [{ flight_number: 'HAT700', date: '2024-05-21' }] },
      /JFK to SEA/,
    );
  });
  it('flights.same_route_and_trip_type: a round trip cut to one way', async () => {
    const guard = context(dialogue(proposal), {
      reservations: [
        reservation({
          flight_type: 'round_trip',
          flights: [
            { flight_number: 'HAT600', date: '2024-05-21', price: 100, origin: 'JFK', destination: 'SEA' },
            { flight_number: 'HAT500', date: '2024-05-25', price: 100, origin: 'SEA', destination: 'JFK' },
          ],
        }),
      ],
    });
    await violation('flights.same_route_and_trip_type', {}, /not a round trip/, guard);
  });
  it('flights.new_flights_bookable: the new flight is delayed', async () => {
    const guard = context(dialogue(proposal), {
      flights: [flight('HAT600', '2024-05-21', 'JFK', 'SEA', { status: 'delayed' } as never)],
    });
    await violation('flights.new_flights_bookable', {}, /delayed and cannot be booked/, guard);
  });
  it('flights.new_flights_bookable: a cabin change re-books a flown segment', async () => {
    const flights = reservation().flights.map(({ flight_number, date }) => ({ flight_number, date }));
    const guard = context(dialogue(proposal), {
      flights: [
        flight('HAT136', '2024-05-20', 'JFK', 'ATL', { status: 'landed' } as never),
        flight('HAT039', '2024-05-20', 'ATL', 'SEA'),
      ],
    });
    await violation('flights.new_flights_bookable', { cabin: 'business', flights }, /re-books every segment/, guard);
  });
  it('flights.payment_method: a certificate', async () => {
    await violation(
      'flights.payment_method',
      { payment_id: 'certificate_1' },
      /certificate: use one gift card or credit card/,
    );
  });
  it('flights.payment_method: not in the profile', async () => {
    await violation('flights.payment_method', { payment_id: 'credit_card_9' }, /not in the user's profile/);
  });
});
