/**
 * How airline customers refer to the domain's values, read by the conversation's questions (`stated`, `agreed`,
 * `reasonGiven`): a city names its airport, "my gift card" the user's gift card, "the card ending in 7803" the credit
 * card with those digits, "the original payment method" the method the reservation was paid with, "round trip" a
 * trip type; how amounts are written; and the words of each reason for cancelling. Reviewed; the words are the
 * airline's, not agentguard's.
 */
import type { AmountDescription, DomainDescription } from 'agentguard';

export const domain: DomainDescription = {
  kinds: {
    airport: { key: 'iata', names: ['city'] },
    user: { key: 'user_id' },
    reservation: { key: 'reservation_id' },
    flight: { key: 'flight_number' },
    trip_type: {
      key: 'type',
      classes: {
        field: 'type',
        phrases: {
          one_way: ['one way', 'one-way', 'oneway'],
          round_trip: ['round trip', 'round-trip', 'roundtrip', 'return flight', 'return trip'],
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
          gift_card: ['gift card', 'giftcard', 'gift cards', 'giftcards'],
          credit_card: [
            'credit card',
            'credit cards',
            'card ending',
            'card on file',
            'visa',
            'mastercard',
            'amex',
            'american express',
            'discover',
          ],
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
      roles: {
        original: [
          'original payment',
          'original form of payment',
          'original method',
          'original card',
          'same payment',
          'same form of payment',
          'same method',
          'same card',
        ],
      },
    },
  },
};

/** The trip types a booking may have, one record each: the records of the `trip_type` kind. */
export const tripTypes = [{ type: 'one_way' }, { type: 'round_trip' }];

/** How amounts are written: "$1,194", "$76.50", and "$150 per passenger" (times the passengers). */
export const amounts: AmountDescription = {
  currency: ['$'],
  each: ['each', 'per passenger', 'per person', 'per traveller', 'per traveler', 'per ticket'],
};

/** The reasons for cancelling that the policy names or that travel insurance covers, each with its words. */
export const cancellationReasons = {
  health: [
    'sick',
    'ill',
    'illness',
    'unwell',
    'health',
    'medical',
    'hospital',
    'hospitalized',
    'hospitalised',
    'hospitalization',
    'injury',
    'injured',
    'injuries',
    'surgery',
    'doctor',
    'diagnosed',
    'diagnosis',
    'covid',
    'flu',
    'fever',
    'pregnant',
    'pregnancy',
  ],
  weather: [
    'weather',
    'storm',
    'storms',
    'stormy',
    'hurricane',
    'snow',
    'snowstorm',
    'blizzard',
    'flood',
    'flooding',
    'floods',
    'tornado',
    'typhoon',
    'thunderstorm',
  ],
  airline_cancelled: [
    'flight was cancelled',
    'flight was canceled',
    'flight got cancelled',
    'flight got canceled',
    'flight has been cancelled',
    'flight has been canceled',
    'airline cancelled',
    'airline canceled',
    'you cancelled',
    'you canceled',
    'cancelled by the airline',
    'canceled by the airline',
  ],
  change_of_plan: [
    'change of plan',
    'change of plans',
    'change in plan',
    'change in plans',
    'change in my plans',
    'change of my plans',
    'change in our plans',
    'plans changed',
    'plan changed',
    'plans have changed',
    'plan has changed',
    'no longer need',
    'no longer want',
    'no longer going',
    'changed my mind',
    "can't make it",
    'cannot make it',
  ],
  other: [
    'because',
    'due to',
    'reason',
    'since i',
    'as i',
    'mistake',
    'mistakenly',
    'accident',
    'accidentally',
    'double booked',
    'double-booked',
    'double booking',
    'schedule',
    'conflict',
    'emergency',
    'so that',
    'in order to',
    'no longer',
  ],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** The reasons travel insurance covers. */
export const insuredReasons = { health: cancellationReasons.health, weather: cancellationReasons.weather };
