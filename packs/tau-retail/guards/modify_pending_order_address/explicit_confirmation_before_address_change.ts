/** `modify_pending_order_address.explicit_confirmation_before_address_change`: Before the call, the agent must have listed the action details to the user (the order id and the complete new shipping address: address1, address2, city, state, country, zip) and the user's latest message must explicitly confirm with 'yes' to proceed with exactly these details. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';
import { unconfirmed } from '../lib/dialogue.ts';

const tool = 'modify_pending_order_address';

/** Ways the proposal may name the first address line: in full, or by its house number and street name. */
function addressLineNames(address1: string): string[] {
  const full = address1.trim();
  const words = full.split(/\s+/);
  const short = words.length >= 2 ? `${words[0] ?? ''} ${words[1] ?? ''}` : '';
  return [full, short].filter((name) => name.trim() !== '');
}

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
  const sameTarget = (earlier: Record<string, unknown>): boolean => earlier['order_id'] === args.order_id;

  // An explicit yes to the agent's proposal to change this order's address.
  const notConfirmed = unconfirmed(
    context,
    tool,
    { action: /\baddress/, details: [args.order_id, args.address1.trim(), args.zip.trim()] },
    sameTarget,
  );
  if (notConfirmed !== undefined) return notConfirmed;

  // The yes must cover this call's address: the proposal the user agreed to names its street line and zip code.
  const details: readonly [string, string, readonly string[]][] = [
    ['zip', args.zip, [args.zip.trim()].filter((name) => name !== '')],
    ['address1', args.address1, addressLineNames(args.address1)],
  ];
  for (const [field, value, names] of details) {
    if (names.length === 0) continue;
    const fact = context.conversation.agreed({ tool, names, sameTarget });
    if (fact.answer !== 'yes') {
      return {
        message:
          `The user's yes for order ${args.order_id} does not cover this address: the proposal they agreed to does not name ` +
          `${field} '${value}'. List the exact new address (${args.address1}, ${args.address2}, ${args.city}, ${args.state}, ` +
          `${args.country}, ${args.zip}) and ask for a yes again.`,
        facts: { order_id: args.order_id, field, value, answer: fact.answer, evidence: fact.evidence },
      };
    }
  }
  return undefined;
};
