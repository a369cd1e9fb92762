import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { says } from 'agentguard/testing';
import { checks } from '../guards/book_reservation.ts';
import type { BookReservationArgs } from '../types.ts';
import { context, decide, dialogue, flight, user } from './fixtures.ts';

const tool = 'book_reservation';
const base: BookReservationArgs = {
  user_id: 'mia_li_3668',
  origin: 'JFK',
  destination: 'SEA',
  flight_type: 'one_way',
  cabin: 'economy',
  flights: [
    { flight_number: 'HAT136', date: '2024-05-20' },
    { flight_number: 'HAT039', date: '2024-05-20' },
  ],
  passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
  payment_methods: [{ payment_id: 'credit_card_1', amount: 200 }],
  total_baggages: 0,
  nonfree_baggages: 0,
  insurance: 'no',
};
const proposal =
  'Booking HAT136 and HAT039 on May 20 in economy for Mia Li, $200 on your Visa, no insurance. Shall I book it?';
const conversation = [says.assistant('Would you like travel insurance?'), says.user('No.'), ...dialogue(proposal)];
const run = (policy: string, args: Partial<BookReservationArgs> = {}, guard = context(conversation)) =>
  decide(checks, policy, tool, { ...base, ...args }, guard);
const violation = async (
  policy: string,
  args: Partial<BookReservationArgs>,
  pattern: RegExp,
  guard = context(conversation),
) => assert.match((await run(policy, args, guard))?.message ?? '', pattern);

describe('book_reservation policies comply on a careful booking', () => {
  for (const policy of Object.keys(checks)) {
    it(policy, async () => assert.equal(await run(policy), undefined));
  }
});

describe('book_reservation violations', () => {
  it('book.user_confirmation: the user only picked an option', async () => {
    const guard = context([...dialogue(proposal, "I'll go with the first option, HAT136 and HAT039.")]);
    await violation('book.user_confirmation', {}, /not explicitly confirmed/, guard);
  });
  it('book.user_id_obtained: the user never gave the id', async () => {
    await violation('book.user_id_obtained', {}, /has not given/, context([says.user('Book me to Seattle.')]));
  });
  it('book.user_id_obtained: unknown user', async () => {
    await violation('book.user_id_obtained', { user_id: 'ghost_1' }, /does not exist/);
  });
  it('book.flights_bookable: an on-time flight cannot be booked', async () => {
    const guard = context(conversation, {
      flights: [flight('HAT136', '2024-05-20', 'JFK', 'ATL', { status: 'on time' } as never)],
    });
    await violation('book.flights_bookable', {}, /on time and cannot be booked/, guard);
  });
  it('book.flights_bookable: the flight does not operate that day', async () => {
    await violation(
      'book.flights_bookable',
      { flights: [{ flight_number: 'HAT999', date: '2024-05-20' }] },
      /does not operate/,
    );
  });
  it('book.seats_available: not enough seats', async () => {
    const guard = context(conversation, {
      flights: [
        flight('HAT136', '2024-05-20', 'JFK', 'ATL', {
          available_seats: { basic_economy: 9, economy: 1, business: 9 },
        } as never),
        flight('HAT039', '2024-05-20', 'ATL', 'SEA'),
      ],
    });
    const passengers = [
      base.passengers[0],
      { first_name: 'Ann', last_name: 'Li', dob: '1992-01-01' },
    ] as BookReservationArgs['passengers'];
    await violation('book.seats_available', { passengers }, /1 economy seats left for 2/, guard);
  });
  it('book.itinerary_matches_trip: a round trip with no way back', async () => {
    await violation('book.itinerary_matches_trip', { flight_type: 'round_trip' }, /not a round trip/);
  });
  it('book.itinerary_matches_trip: legs that do not connect', async () => {
    const flights = [
      { flight_number: 'HAT700', date: '2024-05-21' },
      { flight_number: 'HAT039', date: '2024-05-20' },
    ];
    await violation('book.itinerary_matches_trip', { flights }, /not a one-way trip/);
  });
  it('book.max_passengers: six passengers', async () => {
    const passengers = Array.from({ length: 6 }, (_, index) => ({
      first_name: `P${index}`,
      last_name: 'Li',
      dob: '1990-01-01',
    }));
    await violation('book.max_passengers', { passengers }, /at most five/);
  });
  it('book.passenger_details: no date of birth', async () => {
    await violation(
      'book.passenger_details',
      { passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '' }] },
      /passenger 1/,
    );
  });
  it('book.payment_in_profile: an unknown gift card', async () => {
    await violation(
      'book.payment_in_profile',
      { payment_methods: [{ payment_id: 'gift_card_9', amount: 200 }] },
      /not in the user's profile/,
    );
  });
  it('book.payment_method_limits: two certificates', async () => {
    const payment_methods = [
      { payment_id: 'certificate_1', amount: 100 },
      { payment_id: 'certificate_2', amount: 100 },
    ];
    await violation('book.payment_method_limits', { payment_methods }, /2 certificates/);
  });
  it('book.payment_method_limits: four gift cards', async () => {
    const payment_methods = ['gift_card_1', 'gift_card_2', 'gift_card_3', 'gift_card_4'].map((payment_id) => ({
      payment_id,
      amount: 50,
    }));
    await violation('book.payment_method_limits', { payment_methods }, /4 gift cards/);
  });
  it('book.payment_total: insurance not paid for', async () => {
    await violation('book.payment_total', { insurance: 'yes' }, /add up to 200 but the booking costs 230/);
  });
  it('book.baggage_allowance: a free bag charged', async () => {
    await violation('book.baggage_allowance', { total_baggages: 3, nonfree_baggages: 1 }, /means 0 paid bags, not 1/);
  });
  it('book.baggage_allowance: a regular member in economy with 2 bags and none paid', async () => {
    const guard = context(conversation, { users: { mia_li_3668: user({ membership: 'regular' }) } });
    await violation('book.baggage_allowance', { total_baggages: 2 }, /means 1 paid bags, not 0/, guard);
  });
  it('book.insurance_offered: insurance never came up', async () => {
    await violation(
      'book.insurance_offered',
      {},
      /travel insurance/,
      context(dialogue('Booking HAT136 and HAT039 for $200. Shall I book it?')),
    );
  });
});
