/**
 * How airline customers refer to the domain's values, read by the conversation's `stated` question: a city names its
 * airport, "my gift card" the user's gift card, "the card ending in 7803" the credit card with those digits, "the
 * original payment method" the method the reservation was paid with. Reviewed; the words are the airline's, not
 * agentguard's.
 */
import type { DomainDescription } from 'agentguard';

export const domain: DomainDescription = {
  kinds: {
    airport: { key: 'iata', names: ['city'] },
    user: { key: 'user_id' },
    reservation: { key: 'reservation_id' },
    flight: { key: 'flight_number' },
    payment_method: {
      key: 'id',
      digits: ['last_four'],
      keyDigits: true,
      classes: {
        field: 'source',
        phrases: {
          gift_card: ['gift card', 'giftcard', 'gift cards'],
          credit_card: ['credit card', 'card ending', 'card on file', 'visa', 'mastercard', 'amex', 'american express'],
          certificate: ['certificate', 'certificates', 'travel certificate'],
        },
      },
      orders: [
        {
          field: 'amount',
          lowest: ['smallest balance', 'lowest balance', 'least balance'],
          highest: ['largest balance', 'highest balance', 'most balance'],
        },
      ],
      roles: { original: ['original payment method', 'original payment', 'same payment method', 'original card'] },
    },
  },
};
