/** `modify_user_address.address_from_user_not_made_up`: Every address argument (address1, address2, city, state, country, zip) must come from what the user stated in the conversation or from tool results; the agent must not invent or guess any part of the new address. */
import type { Fact, PolicyCheck } from 'agentguard';
import type { ModifyUserAddressArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

type AddressField = 'address1' | 'address2' | 'city' | 'state' | 'country' | 'zip';
type Address = Readonly<Record<AddressField, string>>;

const fields: readonly AddressField[] = ['address1', 'address2', 'city', 'state', 'country', 'zip'];

/** Whether two values of records and arguments are the same, ignoring case and surrounding spaces. */
function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export const check: PolicyCheck<ModifyUserAddressArgs> = async (args, context) => {
  // The addresses the tools know for this user: the profile's and those of the user's orders.
  const user = await lookup(context, 'get_user_details', { user_id: args.user_id });
  const known: Address[] = [user.address];
  for (const orderId of user.orders) {
    try {
      const order = await lookup(context, 'get_order_details', { order_id: orderId });
      known.push(order.address);
    } catch {
      // an order that cannot be read adds no known address
    }
  }

  // The whole address as a tool shows it (for instance an order's shipping address): nothing was made up.
  if (known.some((address) => fields.every((field) => same(address[field], args[field])))) return undefined;

  const failing: { field: AddressField; value: string; fact: Fact }[] = [];
  for (const field of fields) {
    const value = args[field];
    if (value.trim() === '') continue; // an empty line adds nothing to the address
    if (known.some((address) => same(address[field], value))) continue; // from a tool result
    const fact = context.conversation.stated({ value });
    if (fact.answer !== 'yes') failing.push({ field, value, fact });
  }
  if (failing.length === 0) return undefined;

  const listed = failing.map((entry) => `${entry.field} '${entry.value}'`).join(', ');
  const message = `the new default address of user ${args.user_id} has ${listed}, which the user did not give and no tool result shows; ask the user for the missing or unclear parts of the address instead of guessing them`;
  const facts = {
    user_id: args.user_id,
    notFromUserOrTools: failing.map((entry) => ({
      field: entry.field,
      value: entry.value,
      answer: entry.fact.answer,
      evidence: entry.fact.evidence,
    })),
  };
  if (failing.some((entry) => entry.fact.answer === 'no')) return { message, facts };
  return { message, facts, ask: `Did the user give ${listed} for their new default address?` };
};
