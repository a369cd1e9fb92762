/** `certificate.amount`: The certificate is $100 per passenger for a cancelled flight, or $50 per passenger for a delayed flight, of an eligible reservation. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { bases } from '../lib/certificates.ts';

export const check: PolicyCheck<SendCertificateArgs> = async (args, context) => {
  const eligible = (await bases(args, context)).filter((basis) => basis.eligible);
  if (eligible.length === 0 || eligible.some((basis) => basis.amount === args.amount)) return undefined;
  const allowed = eligible.map((basis) => `$${basis.amount} for the ${basis.kind} flight of ${basis.reservationId}`);
  return { message: `a certificate of $${args.amount} matches no gesture: ${allowed.join('; ')}`, facts: { allowed } };
};
