/**
 * Whether the user stated a product option's value, in the words the domain description gives it (a size: "small"
 * for S) among the values the product's variants hold for that option. Written in review (second review).
 */
import type { Conversation, ValueFact } from 'agentguard';
import type { GetProductDetailsResult } from '../../types.ts';
import { domain } from './domain-description.ts';

/** The options whose values the domain description names in words, by the kind that describes them. */
const kindOf: Readonly<Record<string, string>> = { size: 'size' };

/**
 * The user's statement of `value` for `option` of `product` (see `Conversation.stated`).
 *
 * @example
 * ```ts
 * statedOption(context.conversation, product, 'size', 'S').answer; // 'yes' after "purple, size small"
 * ```
 */
export function statedOption(
  conversation: Conversation,
  product: GetProductDetailsResult,
  option: string,
  value: string,
): ValueFact {
  const kind = kindOf[option];
  if (kind === undefined) return conversation.stated({ value });
  const values = new Set<string>([value]);
  for (const variant of Object.values(product.variants)) {
    const held = (variant?.options as Readonly<Record<string, string | undefined>> | undefined)?.[option];
    if (held !== undefined) values.add(held);
  }
  return conversation.stated({ value, kind, records: [...values].map((held) => ({ value: held })) }, domain);
}
