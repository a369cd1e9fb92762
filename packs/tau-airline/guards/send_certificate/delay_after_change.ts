/** `certificate.delay_after_change`: A certificate for a delayed flight comes after the reservation was changed or cancelled in this conversation. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { bases } from '../lib/certificates.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<SendCertificateArgs> = (args, context) =>
  after(bases(args, context), (found) => {
    const matching = found.filter((basis) => basis.eligible && basis.amount === args.amount);
    if (matching.length === 0 || matching.some((basis) => basis.kind === 'cancelled')) return undefined;
    const changed = context.conversation
      .toolCalls()
      .some(
        (past) =>
          (past.call.name === 'cancel_reservation' || past.call.name === 'update_reservation_flights') &&
          matching.some((basis) => basis.reservationId === past.call.arguments.reservation_id) &&
          past.result !== undefined &&
          !past.result.startsWith('Error'),
      );
    return changed
      ? undefined
      : { message: 'a certificate for a delayed flight comes only after the reservation was changed or cancelled' };
  });
