/** `certificate.facts_confirmed`: The user has a reservation in question with a flight the airline cancelled or that is delayed. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { bases } from '../lib/certificates.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<SendCertificateArgs> = (args, context) =>
  after(bases(args, context), (found) =>
    found.length > 0
      ? undefined
      : { message: `no reservation of ${args.user_id} in question has a cancelled or delayed flight` },
  );
