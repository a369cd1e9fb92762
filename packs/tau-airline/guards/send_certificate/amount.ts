/** `certificate.amount`: The certificate is $100 per passenger for a cancelled flight, or $50 per passenger for a delayed flight, of an eligible reservation. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { bases } from '../lib/certificates.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<SendCertificateArgs> = (args, context) =>
  after(bases(args, context), (found) => {
    const eligible = found.filter((basis) => basis.eligible);
    if (eligible.length === 0 || eligible.some((basis) => basis.amount === args.amount)) return undefined;
    const allowed = eligible.map((basis) => `$${basis.amount} for the ${basis.kind} flight of ${basis.reservationId}`);
    return {
      message: `a certificate of $${args.amount} matches no gesture: ${allowed.join('; ')}`,
      facts: { allowed },
    };
  });
