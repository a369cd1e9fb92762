/** `certificate.facts_confirmed`: The user has a reservation in question with a flight the airline cancelled or that is delayed. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { bases } from '../lib/certificates.ts';

export const check: PolicyCheck<SendCertificateArgs> = async (args, context) =>
  (await bases(args, context)).length > 0
    ? undefined
    : { message: `no reservation of ${args.user_id} in question has a cancelled or delayed flight` };
