/** `modify_pending_order_items.reminded_to_confirm_all_items`: Before the call, the agent must have reminded the user to confirm that they have provided all items they want modified in this order (since the tool can be called only once), and the user must have confirmed that the list is complete (see `lib/all-items.ts`). */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { confirmedAllItems } from '../lib/all-items.ts';
import { decide } from '../lib/dialogue.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  // A reminder and answer given before an earlier change belong to it, unless they name this order (see `lib/all-items.ts`).
  const all = confirmedAllItems(context.conversation, args.order_id);
  const finding = decide(all, {
    need: `before modifying the items of order ${args.order_id}, the agent must remind the user that items can be modified only once and the user must confirm they have given all the items to modify`,
    question: `Did the user confirm that ${args.item_ids.join(', ')} are all the items they want to modify in order ${args.order_id}?`,
  });
  if (finding === undefined) return undefined;
  return { ...finding, facts: { ...finding.facts, order_id: args.order_id, item_ids: args.item_ids } };
};
