/** `baggages.no_removal`: The new total of bags, and of paid bags, is not below the current one. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { findReservation } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    if (args.total_baggages < reservation.total_baggages || args.nonfree_baggages < reservation.nonfree_baggages) {
      return {
        message: `the reservation has ${reservation.total_baggages} bags (${reservation.nonfree_baggages} paid); bags can be added but not removed`,
      };
    }
    return undefined;
  });
