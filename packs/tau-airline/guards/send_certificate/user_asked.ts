/** `certificate.user_asked`: A certificate is sent only after the user has asked for compensation. */
import type { PolicyCheck } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { decidedBy } from '../lib/agreement.ts';

/** How users ask for compensation: the words that name it, not the certificate, which is also a way to pay. */
const compensation = [
  'compensation',
  'compensate',
  'compensated',
  'voucher',
  'vouchers',
  'reimbursement',
  'reimburse',
  'reimbursed',
  'gesture',
  'goodwill',
  'make up for',
  'make it up',
];

export const check: PolicyCheck<SendCertificateArgs> = (_args, context) => {
  const asked = context.conversation.requested(compensation);
  if (asked.answer === 'yes') return undefined;
  const message = `the user has not asked for compensation: ${asked.reason}${decidedBy(asked)}; do not offer a certificate unprompted`;
  return asked.answer === 'no' ? { message } : { message, ask: 'Are you asking for compensation for this flight?' };
};
