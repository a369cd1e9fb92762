/** `certificate.user_asked`: A certificate is sent only after the user has asked for compensation. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';

export const check: PolicyCheck<SendCertificateArgs> = (_args, context) => {
  const asked = context.conversation
    .userTexts()
    .some((text) => /compensat|certificate|voucher|refund|reimburs|credit|gesture|make (it )?up for/i.test(text));
  return asked
    ? undefined
    : { message: 'the user has not asked for compensation: do not offer a certificate unprompted' };
};
