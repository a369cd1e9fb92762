/** The records of the tau-bench v1 retail database, as its JSON files hold them. */

/** A postal address. */
export interface Address {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}

/** A stored payment method: a gift card has a `balance`, a credit card a `brand` and `last_four`. */
export interface PaymentMethod {
  source: 'credit_card' | 'gift_card' | 'paypal';
  id: string;
  balance?: number;
  brand?: string;
  last_four?: string;
}

/** A customer. */
export interface User {
  name: { first_name: string; last_name: string };
  address: Address;
  email: string;
  payment_methods: Record<string, PaymentMethod>;
  orders: string[];
}

/** One item of an order: a product variant at the price paid. */
export interface OrderItem {
  name: string;
  product_id: string;
  item_id: string;
  price: number;
  options: Record<string, string>;
}

/** A payment or refund on an order. */
export interface Transaction {
  transaction_type: 'payment' | 'refund';
  amount: number;
  payment_method_id: string;
}

/** An order, with the fields the write tools add to it. */
export interface Order {
  order_id: string;
  user_id: string;
  address: Address;
  items: OrderItem[];
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  status: string;
  payment_history: Transaction[];
  cancel_reason?: string;
  exchange_items?: string[];
  exchange_new_items?: string[];
  exchange_payment_method_id?: string;
  exchange_price_difference?: number;
  return_items?: string[];
  return_payment_method_id?: string;
}

/** A variant of a product. */
export interface Variant {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: number;
}

/** A product and its variants, by item id. */
export interface Product {
  name: string;
  product_id: string;
  variants: Record<string, Variant>;
}

/** The whole database, by id. */
export interface RetailData {
  users: Record<string, User>;
  orders: Record<string, Order>;
  products: Record<string, Product>;
}
