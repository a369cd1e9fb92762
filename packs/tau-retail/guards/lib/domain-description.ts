/**
 * How the people of this domain refer to its values, read by `context.conversation.stated(…, domain)`. Drafted by
 * agentguard from the lookups' result schemas; review it like any guard, and add the roles ("the original payment
 * method") and orders ("the cheapest") the domain's people use.
 */
import type { DomainDescription } from 'agentguard';

export const domain: DomainDescription = {
  "kinds": {
    "order": {
      "key": "order_id"
    },
    "item": {
      "key": "product_id",
      "names": [
        "name"
      ]
    },
    "fulfillment": {
      "key": "tracking_id"
    },
    "product": {
      "key": "product_id",
      "names": [
        "name"
      ]
    },
    "variant": {
      "key": "item_id"
    },
    "payment_method": {
      "key": "id",
      "digits": [
        "last_four"
      ],
      "classes": {
        "field": "source",
        "phrases": {}
      }
    }
  }
};
