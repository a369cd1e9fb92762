/** `book.payment_total`: The payments add up to the price: each flight's fare in the cabin per passenger, plus 30 dollars per passenger with insurance, plus 50 dollars per paid bag. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findFlightOnDate } from '../lib/airline.ts';
import { after, allOf } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(allOf(args.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date))), (found) => {
    const passengers = args.passengers.length;
    let total = 0;
    for (const details of found) {
      if (details?.status !== 'available') return undefined;
      total += details.prices[args.cabin] * passengers;
    }
    if (args.insurance === 'yes') total += 30 * passengers;
    total += 50 * args.nonfree_baggages;
    const paid = args.payment_methods.reduce((sum, payment) => sum + payment.amount, 0);
    return paid === total
      ? undefined
      : { message: `the payments add up to ${paid} but the booking costs ${total}`, facts: { total, paid } };
  });
