import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AirlineTools } from './airline-tools.ts';
import { calculate } from './calculate.ts';
import { AirlineDatabase, loadAirlineData } from './database.ts';

const data = await loadAirlineData();
const fresh = () => new AirlineTools(new AirlineDatabase(data));
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('the tau-bench v1 airline tools', () => {
  it('keep the v1 quirks of the read tools', () => {
    const tools = fresh();
    assert.equal(tools.run('get_reservation_details', { reservation_id: 'NOPE00' }), 'Error: user not found');
    assert.match(tools.run('get_user_details', { user_id: 'mia_li_3668' }), /^\{"name": \{"first_name": "Mia"/);
    const legs = JSON.parse(
      tools.run('search_onestop_flight', { origin: 'SFO', destination: 'IAH', date: '2024-05-19' }),
    ) as { date: string }[][];
    assert.ok(legs.length > 0);
  });
  it('print calculate results as Python does', () => {
    assert.equal(calculate('100 + 155'), '255');
    assert.equal(calculate('510 / 2'), '255.0');
    assert.equal(calculate('(1.5 + 2) * 2'), '7.0');
    assert.equal(calculate('10 / 3'), '3.33');
    assert.equal(calculate('1 / 0'), 'Error: division by zero');
    assert.equal(calculate('2 ** 3'), 'Error: invalid syntax');
    assert.equal(calculate('import os'), 'Error: invalid characters in expression');
  });
  it('book: price the trip, consume a certificate, debit a gift card, and refuse a wrong total', () => {
    const tools = fresh();
    const args = {
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
      payment_methods: [{ payment_id: 'certificate_7504069', amount: 200 }],
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: 'no',
    };
    assert.match(
      tools.run('book_reservation', args),
      /^Error: payment amount does not add up, total price is \d+, but paid 200$/,
    );
    const total = Number(/total price is (\d+)/.exec(tools.run('book_reservation', args))?.[1]);
    const booked = json(
      tools.run('book_reservation', {
        ...args,
        payment_methods: [
          { payment_id: 'certificate_7504069', amount: 250 },
          { payment_id: 'credit_card_4421486', amount: total - 250 },
        ],
      }),
    );
    assert.equal(booked.reservation_id, 'HATHAT');
    const user = json(tools.run('get_user_details', { user_id: 'mia_li_3668' }));
    assert.equal((user.payment_methods as Record<string, unknown>).certificate_7504069, undefined);
    assert.deepEqual((user.reservations as string[]).at(-1), 'HATHAT');
    assert.equal(Array.isArray(json(fresh().run('get_user_details', { user_id: 'mia_li_3668' })).reservations), true);
    assert.notEqual(
      (json(fresh().run('get_user_details', { user_id: 'mia_li_3668' })).payment_methods as Record<string, unknown>)
        .certificate_7504069,
      undefined,
      'runs do not share state',
    );
  });
  it('cancel: refunds every payment entry and marks the reservation; a second cancel refunds the refunds too', () => {
    const tools = fresh();
    tools.run('cancel_reservation', { reservation_id: '4WQ150' });
    const twice = json(tools.run('cancel_reservation', { reservation_id: '4WQ150' }));
    assert.equal(twice.status, 'cancelled');
    assert.deepEqual(
      (twice.payment_history as { amount: number }[]).map((payment) => payment.amount),
      [4986, -4986, -4986, 4986],
    );
  });
  it('update flights: v1 keeps the old cabin and re-prices every segment on a cabin change', () => {
    const tools = fresh();
    const reservation = json(tools.run('get_reservation_details', { reservation_id: '4WQ150' }));
    const flights = (reservation.flights as { flight_number: string; date: string }[]).map(
      ({ flight_number, date }) => ({ flight_number, date }),
    );
    const updated = json(
      tools.run('update_reservation_flights', {
        reservation_id: '4WQ150',
        cabin: 'economy',
        flights,
        payment_id: 'gift_card_3576581',
      }),
    );
    assert.equal(updated.cabin, 'business');
    assert.ok(((updated.payment_history as { amount: number }[]).at(-1)?.amount ?? 0) < 0);
  });
  it('send certificate: takes the first free id and checks nothing else', () => {
    const tools = fresh();
    assert.equal(
      tools.run('send_certificate', { user_id: 'mia_li_3668', amount: 150 }),
      'Certificate certificate_3221322 added to user mia_li_3668 with amount 150.',
    );
    assert.equal(
      tools.run('send_certificate', { user_id: 'mia_li_3668', amount: 150 }),
      'Certificate certificate_3221323 added to user mia_li_3668 with amount 150.',
    );
  });
  it('guards read values, and only lookups', async () => {
    const tools = fresh();
    const flight = (await tools.invoker.invoke('get_flight_on_date_details', {
      flight_number: 'HAT001',
      date: '2024-05-01',
    })) as { status: string };
    assert.equal(flight.status, 'landed');
    await assert.rejects(tools.invoker.invoke('cancel_reservation', { reservation_id: '4WQ150' }), /not a lookup/);
    const reservation = (await tools.invoker.invoke('get_reservation_details', { reservation_id: '4WQ150' })) as {
      cabin: string;
    };
    assert.throws(() => {
      reservation.cabin = 'economy';
    }, TypeError);
  });
});
