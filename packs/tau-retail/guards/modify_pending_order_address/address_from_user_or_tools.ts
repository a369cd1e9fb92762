/** `modify_pending_order_address.address_from_user_or_tools`: Every address field of the call (address1, address2, city, state, country, zip) must come from the user's messages or from tool results (for instance the user's default address in get_user_details); the agent must not invent or guess any part of the new address. */
import type { Fact, PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

type AddressField = 'address1' | 'address2' | 'city' | 'state' | 'country' | 'zip';
type Address = Readonly<Record<AddressField, string>>;

const fields: readonly AddressField[] = ['address1', 'address2', 'city', 'state', 'country', 'zip'];

/** A record's value, trimmed and lower-cased, to compare with an argument. */
function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const user = await lookup(context, 'get_user_details', { user_id: order.user_id });
  const known: readonly Address[] = [user.address, order.address];

  // The whole address as a tool shows it (the user's default address, or the order's own): nothing was made up.
  if (known.some((address) => fields.every((field) => same(address[field], args[field])))) return undefined;

  const unsure: { field: AddressField; value: string; fact: Fact }[] = [];
  const refused: { field: AddressField; value: string; fact: Fact }[] = [];
  for (const field of fields) {
    const value = args[field];
    if (value.trim() === '') continue; // an empty line adds nothing to the address
    if (known.some((address) => same(address[field], value))) continue; // from a tool result
    const fact = context.conversation.stated({ value });
    if (fact.answer === 'yes') continue;
    (fact.answer === 'no' ? refused : unsure).push({ field, value, fact });
  }
  if (refused.length === 0 && unsure.length === 0) return undefined;

  const all = [...refused, ...unsure];
  const listed = all.map((entry) => `${entry.field} '${entry.value}'`).join(', ');
  const facts = {
    order_id: args.order_id,
    notFromUserOrTools: all.map((entry) => ({
      field: entry.field,
      value: entry.value,
      answer: entry.fact.answer,
      evidence: entry.fact.evidence,
    })),
  };
  const message = `the new address of order ${args.order_id} has ${listed}, which the user did not give and no tool result shows; ask the user for the missing parts of the address instead of guessing them`;
  if (refused.length > 0) return { message, facts };
  return { message, facts, ask: `Did the user give ${listed} for the new shipping address of order ${args.order_id}?` };
};
