/** `certificate.eligible_user`: Compensation goes only to silver or gold members, users with travel insurance, or business travellers. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { bases } from '../lib/certificates.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<SendCertificateArgs> = (args, context) =>
  after(bases(args, context), (found) => {
    if (found.length === 0 || found.some((basis) => basis.eligible)) return undefined;
    return {
      message: `${args.user_id} is a regular member without travel insurance flying (basic) economy: no compensation`,
    };
  });
