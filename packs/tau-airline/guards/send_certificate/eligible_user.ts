/** `certificate.eligible_user`: Compensation goes only to silver or gold members, users with travel insurance, or business travellers. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { bases } from '../lib/certificates.ts';

export const check: PolicyCheck<SendCertificateArgs> = async (args, context) => {
  const found = await bases(args, context);
  if (found.length === 0 || found.some((basis) => basis.eligible)) return undefined;
  return {
    message: `${args.user_id} is a regular member without travel insurance flying (basic) economy: no compensation`,
  };
};
