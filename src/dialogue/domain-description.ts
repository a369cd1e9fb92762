/**
 * How the people of a domain refer to its values, as data a pack ships: the conversation readings learn from it that
 * "Detroit" names the airport DTW, that "my gift card" names the one payment method whose source is a gift card, or
 * that "the card ending in 7803" names the method whose last four digits are 7803. The library holds no word of any
 * domain: every phrase comes from here, and every value from the records the guard looked up.
 */

/** How the values of one kind (an airport, a payment method, a cabin) may be referred to. */
export interface ValueKind {
  /** The field of a record that holds the value itself, e.g. `iata` or `id`. */
  key: string;
  /** Fields whose text names the value on its own, e.g. `city` for an airport, `name` for a product. */
  names?: readonly string[];
  /** Fields whose digits name the value when the user says them, e.g. `last_four` ("the card ending in 7803"). */
  digits?: readonly string[];
  /** Whether the run of digits in the value itself names it ("gift card 6276644" for `gift_card_6276644`). */
  keyDigits?: boolean;
  /**
   * A field that sorts the values into classes, and the phrases that name each class beside its own value in words
   * (`gift_card`: "gift card"), e.g. `{ field: 'source', phrases: { credit_card: ['card on file'] } }`: "my gift card"
   * names the gift card when the user has one, and no other value when the class holds several (unless an order or
   * digits single one out).
   */
  classes?: { field: string; phrases: Readonly<Record<string, readonly string[]>> };
  /**
   * Orders that single a value out among those a phrase leaves, e.g. `{ field: 'balance', lowest: ['smallest
   * balance'], highest: ['largest balance'] }` or `{ field: 'price', lowest: ['cheapest'] }`.
   */
  orders?: readonly { field: string; lowest?: readonly string[]; highest?: readonly string[] }[];
  /**
   * Roles a value may play in a call and the phrases that name them, e.g. `{ original: ['original payment method',
   * 'same payment method'] }`: the guard says which value plays each role (the reservation's original payment), and
   * the phrase names that value.
   */
  roles?: Readonly<Record<string, readonly string[]>>;
}

/**
 * A pack's description of its domain's values, by kind. The compiler drafts it from the lookups' result schemas; a
 * person reviews it like any guard. The airline pack ships its reviewed one (`guards/lib/domain-description.ts`).
 *
 * @example
 * ```ts
 * const domain: DomainDescription = {
 *   kinds: { airport: { key: 'iata', names: ['city'] } },
 * };
 * ```
 */
export interface DomainDescription {
  kinds: Readonly<Record<string, ValueKind>>;
}
