/** `modify_user_address.explicit_confirmation_before_address_change`: Before the call, the agent must have listed the modification details (user id and the full new address) to the user, and the user's latest message must give explicit confirmation (yes) for exactly these details. Without that confirmation the call must not run. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyUserAddressArgs } from '../../types.ts';
import { unconfirmed } from '../lib/dialogue.ts';

const tool = 'modify_user_address';

/** Ways the proposal may name the first address line: in full, or by its house number and street name. */
function addressLineNames(address1: string): string[] {
  const full = address1.trim();
  const words = full.split(/\s+/);
  const short = words.length >= 2 ? `${words[0] ?? ''} ${words[1] ?? ''}` : '';
  return [full, short].filter((name) => name.trim() !== '');
}

export const check: PolicyCheck<ModifyUserAddressArgs> = async (args, context) => {
  const sameTarget = (earlier: Record<string, unknown>): boolean => earlier['user_id'] === args.user_id;

  // An explicit yes to the agent's proposal to change this user's default address.
  const notConfirmed = unconfirmed(
    context,
    tool,
    { action: /\baddress/, details: [args.address1.trim(), args.zip.trim()] },
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
          `The user's yes does not cover this address: the proposal they agreed to does not name ${field} '${value}'. ` +
          `List the exact new address (${args.address1}, ${args.address2}, ${args.city}, ${args.state}, ${args.country}, ` +
          `${args.zip}) for user ${args.user_id} and ask for a yes again.`,
        facts: { user_id: args.user_id, field, value, answer: fact.answer, evidence: fact.evidence },
      };
    }
  }
  return undefined;
};
