/**
 * How retail customers refer to the domain's values, read by `context.conversation.stated(…, domain)`: a product by
 * its name, a payment method by its id, the digits of its id or its card's last four digits, by its kind ("my paypal
 * account", "my gift card": the one the user has of that kind) and as the order's original payment method, a size by its words. Drafted
 * by agentguard from the lookups' result schemas; the payment method's and the sizes' words were added in review.
 */
import type { DomainDescription } from 'agentguard';

export const domain: DomainDescription = {
  kinds: {
    order: { key: 'order_id' },
    item: { key: 'product_id', names: ['name'] },
    fulfillment: { key: 'tracking_id' },
    product: { key: 'product_id', names: ['name'] },
    variant: { key: 'item_id' },
    // A product option's value: a size by its words ("size small" for S). Written in the second review.
    size: {
      key: 'value',
      classes: {
        field: 'value',
        phrases: {
          XS: ['extra small', 'x-small'],
          S: ['small'],
          M: ['medium'],
          L: ['large'],
          XL: ['extra large', 'x-large'],
          XXL: ['extra extra large', 'xx-large', '2xl'],
        },
      },
    },
    payment_method: {
      key: 'id',
      digits: ['last_four'],
      keyDigits: true,
      classes: {
        field: 'source',
        phrases: {
          credit_card: ['credit card', 'debit card', 'visa', 'mastercard', 'amex', 'american express', 'discover'],
          gift_card: ['gift card', 'giftcard'],
          paypal: ['paypal', 'pay pal'],
        },
      },
      roles: {
        original: [
          'original payment method',
          'original payment',
          'original method',
          'original card',
          'original credit card',
          'same card',
          'same payment method',
          'card i paid with',
          'how i paid',
          'the one i paid with',
        ],
      },
    },
  },
};
