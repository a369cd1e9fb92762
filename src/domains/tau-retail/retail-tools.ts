import type { ToolInvoker } from '../../model/guard-context.ts';
import { ToolError } from '../tau-airline/airline-tools.ts';
import { calculate as airlineCalculate } from '../tau-airline/calculate.ts';
import { pythonJson } from '../tau-airline/python-json.ts';
import type { RetailDatabase } from './database.ts';
import { round2 } from './python-round.ts';
import type { Address, Order, PaymentMethod } from './records.ts';

type Args = Record<string, unknown>;
type Tool = (args: Args) => unknown;

const cancelReasons = ['no longer needed', 'ordered by mistake'];

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new ToolError(`argument \`${name}\` must be a string`);
  return value;
}

function texts(args: Args, name: string): string[] {
  const value = args[name];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new ToolError(`argument \`${name}\` must be a list of strings`);
  return value;
}

function address(args: Args): Address {
  return {
    address1: text(args, 'address1'),
    address2: text(args, 'address2'),
    city: text(args, 'city'),
    state: text(args, 'state'),
    country: text(args, 'country'),
    zip: text(args, 'zip'),
  };
}

/** How many times `value` occurs in `list` (Python's `list.count`). */
const count = (list: readonly string[], value: string) => list.filter((item) => item === value).length;

/** Python's `sorted` on strings: by code point. */
const sorted = (list: readonly string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Retail's `calculate`: Python's `str(round(float(eval(expression)), 2))`, so a whole result prints as a float
 * (`255.0`), unlike the airline's.
 */
function calculate(expression: string): string {
  const result = airlineCalculate(expression);
  return /^-?\d+$/.test(result) ? `${result}.0` : result;
}

/**
 * The 16 tools of the tau-bench v1 retail domain, faithful to its Python source: the same checks in the same order,
 * the same error strings, and the same changes to the database (gift card balances rounded as Python's `round` does).
 * `run` returns what the agent sees (JSON text, a bare user id, or `Error: …`); `invoker` gives guards the lookups as
 * values.
 *
 * @example
 * ```ts
 * const tools = new RetailTools(new RetailDatabase(await loadRetailData()));
 * tools.run('find_user_id_by_email', { email: 'noah.brown7922@example.com' }); // 'noah_brown_6181'
 * ```
 */
export class RetailTools {
  private readonly database: RetailDatabase;
  private readonly tools: Record<string, Tool>;
  /** Lookups that guards may call. */
  static readonly lookups: ReadonlySet<string> = new Set([
    'calculate',
    'find_user_id_by_email',
    'find_user_id_by_name_zip',
    'get_order_details',
    'get_product_details',
    'get_user_details',
    'list_all_product_types',
  ]);

  constructor(database: RetailDatabase) {
    this.database = database;
    this.tools = {
      calculate: (args) => calculate(text(args, 'expression')),
      cancel_pending_order: (args) => this.cancel(text(args, 'order_id'), text(args, 'reason')),
      exchange_delivered_order_items: (args) =>
        this.exchange(
          text(args, 'order_id'),
          texts(args, 'item_ids'),
          texts(args, 'new_item_ids'),
          text(args, 'payment_method_id'),
        ),
      find_user_id_by_email: (args) => this.findByEmail(text(args, 'email')),
      find_user_id_by_name_zip: (args) =>
        this.findByNameZip(text(args, 'first_name'), text(args, 'last_name'), text(args, 'zip')),
      get_order_details: (args) => this.order(text(args, 'order_id')),
      get_product_details: (args) => this.product(text(args, 'product_id')),
      get_user_details: (args) => this.user(text(args, 'user_id')),
      list_all_product_types: () => this.productTypes(),
      modify_pending_order_address: (args) => this.modifyAddress(text(args, 'order_id'), address(args)),
      modify_pending_order_items: (args) =>
        this.modifyItems(
          text(args, 'order_id'),
          texts(args, 'item_ids'),
          texts(args, 'new_item_ids'),
          text(args, 'payment_method_id'),
        ),
      modify_pending_order_payment: (args) =>
        this.modifyPayment(text(args, 'order_id'), text(args, 'payment_method_id')),
      modify_user_address: (args) => this.modifyUserAddress(text(args, 'user_id'), address(args)),
      return_delivered_order_items: (args) =>
        this.returnItems(text(args, 'order_id'), texts(args, 'item_ids'), text(args, 'payment_method_id')),
      think: () => '',
      transfer_to_human_agents: () => 'Transfer successful',
    };
  }

  /** The names of the 16 tools. */
  names(): string[] {
    return Object.keys(this.tools);
  }

  /** Runs a tool as the agent would: returns its text result, `Error: …` when it refuses. */
  run(name: string, args: Args): string {
    const tool = this.tools[name];
    if (tool === undefined) return `Unknown action ${name}`;
    try {
      const value = tool(args);
      return typeof value === 'string' ? value : pythonJson(value);
    } catch (error) {
      return `Error: ${(error as Error).message}`;
    }
  }

  /** Read-only lookups for guards: values, not text; a refusal throws. */
  readonly invoker: ToolInvoker = {
    invoke: async (name, args) => this.lookup(name, args),
    invokeNow: (name, args) => this.lookup(name, args),
  };

  private lookup(name: string, args: Args): unknown {
    const tool = RetailTools.lookups.has(name) ? this.tools[name] : undefined;
    if (tool === undefined) throw new ToolError(`\`${name}\` is not a lookup`);
    const value = tool(args);
    if (typeof value === 'string' && value.startsWith('Error: ')) throw new ToolError(value.slice('Error: '.length));
    return value;
  }

  private findByEmail(email: string): string {
    for (const [id, user] of this.database.users.entries())
      if (user.email.toLowerCase() === email.toLowerCase()) return id;
    throw new ToolError('user not found');
  }

  private findByNameZip(first: string, last: string, zip: string): string {
    for (const [id, user] of this.database.users.entries()) {
      if (
        user.name.first_name.toLowerCase() === first.toLowerCase() &&
        user.name.last_name.toLowerCase() === last.toLowerCase() &&
        user.address.zip === zip
      )
        return id;
    }
    throw new ToolError('user not found');
  }

  private order(id: string) {
    const order = this.database.orders.get(id);
    if (order === undefined) throw new ToolError('order not found');
    return order;
  }

  private product(id: string) {
    const product = this.database.products.get(id);
    if (product === undefined) throw new ToolError('product not found');
    return product;
  }

  private user(id: string) {
    const user = this.database.users.get(id);
    if (user === undefined) throw new ToolError('user not found');
    return user;
  }

  private productTypes(): Record<string, string> {
    const types = new Map<string, string>();
    for (const [, product] of this.database.products.entries()) types.set(product.name, product.product_id);
    return Object.fromEntries(sorted([...types.keys()]).map((name) => [name, types.get(name) as string]));
  }

  /** A payment method of the order's user; `balance` of a gift card moved by `amount` and rounded as Python does. */
  private moveBalance(userId: string, paymentId: string, amount: number): void {
    this.database.users.update(userId, (user) => {
      const method = user.payment_methods[paymentId] as PaymentMethod;
      method.balance = round2((method.balance ?? 0) + amount);
    });
  }

  private paymentMethod(order: Readonly<Order>, paymentId: string): Readonly<PaymentMethod> {
    const methods = this.database.users.get(order.user_id)?.payment_methods ?? {};
    const method = Object.hasOwn(methods, paymentId) ? methods[paymentId] : undefined;
    if (method === undefined) throw new ToolError('payment method not found');
    return method;
  }

  private cancel(orderId: string, reason: string) {
    const order = this.order(orderId);
    if (order.status !== 'pending') throw new ToolError('non-pending order cannot be cancelled');
    if (!cancelReasons.includes(reason)) throw new ToolError('invalid reason');
    const refunds = order.payment_history.map((payment) => ({
      transaction_type: 'refund' as const,
      amount: payment.amount,
      payment_method_id: payment.payment_method_id,
    }));
    for (const payment of order.payment_history) {
      if (payment.payment_method_id.includes('gift_card'))
        this.moveBalance(order.user_id, payment.payment_method_id, payment.amount);
    }
    return this.database.orders.update(orderId, (changed) => {
      changed.status = 'cancelled';
      changed.cancel_reason = reason;
      changed.payment_history.push(...refunds);
    });
  }

  /** Checks the items to swap as exchange and modify do, and returns the price difference (not rounded). */
  private priceDifference(order: Readonly<Order>, itemIds: string[], newItemIds: string[]): number {
    const allItemIds = order.items.map((item) => item.item_id);
    for (const itemId of itemIds)
      if (count(itemIds, itemId) > count(allItemIds, itemId)) throw new ToolError(`${itemId} not found`);
    if (itemIds.length !== newItemIds.length) throw new ToolError('the number of items to be exchanged should match');
    let difference = 0;
    for (const [index, itemId] of itemIds.entries()) {
      const newItemId = newItemIds[index] as string;
      const item = order.items.find((candidate) => candidate.item_id === itemId);
      const variants = this.database.products.get(item?.product_id ?? '')?.variants ?? {};
      const variant = Object.hasOwn(variants, newItemId) ? variants[newItemId] : undefined;
      if (item === undefined || variant === undefined || !variant.available)
        throw new ToolError(`new item ${newItemId} not found or available`);
      difference += variant.price - item.price;
    }
    return difference;
  }

  private exchange(orderId: string, itemIds: string[], newItemIds: string[], paymentId: string) {
    const order = this.order(orderId);
    if (order.status !== 'delivered') throw new ToolError('non-delivered order cannot be exchanged');
    const difference = round2(this.priceDifference(order, itemIds, newItemIds));
    const method = this.paymentMethod(order, paymentId);
    if (method.source === 'gift_card' && (method.balance ?? 0) < difference)
      throw new ToolError('insufficient gift card balance to pay for the price difference');
    return this.database.orders.update(orderId, (changed) => {
      changed.status = 'exchange requested';
      changed.exchange_items = sorted(itemIds);
      changed.exchange_new_items = sorted(newItemIds);
      changed.exchange_payment_method_id = paymentId;
      changed.exchange_price_difference = difference;
    });
  }

  private modifyAddress(orderId: string, newAddress: Address) {
    const order = this.order(orderId);
    if (order.status !== 'pending') throw new ToolError('non-pending order cannot be modified');
    return this.database.orders.update(orderId, (changed) => {
      changed.address = newAddress;
    });
  }

  private modifyItems(orderId: string, itemIds: string[], newItemIds: string[], paymentId: string) {
    const order = this.order(orderId);
    if (order.status !== 'pending') throw new ToolError('non-pending order cannot be modified');
    const difference = this.priceDifference(order, itemIds, newItemIds);
    const method = this.paymentMethod(order, paymentId);
    if (method.source === 'gift_card' && (method.balance ?? 0) < difference)
      throw new ToolError('insufficient gift card balance to pay for the new item');
    if (method.source === 'gift_card') this.moveBalance(order.user_id, paymentId, -difference);
    return this.database.orders.update(orderId, (changed) => {
      changed.payment_history.push({
        transaction_type: difference > 0 ? 'payment' : 'refund',
        amount: Math.abs(difference),
        payment_method_id: paymentId,
      });
      for (const [index, itemId] of itemIds.entries()) {
        const newItemId = newItemIds[index] as string;
        // The first item of that id still holding it: Python's `[...][0]`, after earlier swaps in this loop.
        const item = changed.items.find((candidate) => candidate.item_id === itemId);
        if (item === undefined) continue;
        const variant = this.database.products.get(item.product_id)?.variants[newItemId];
        if (variant === undefined) continue;
        item.item_id = newItemId;
        item.price = variant.price;
        item.options = structuredClone(variant.options);
      }
      changed.status = 'pending (item modified)';
    });
  }

  private modifyPayment(orderId: string, paymentId: string) {
    const order = this.order(orderId);
    if (order.status !== 'pending') throw new ToolError('non-pending order cannot be modified');
    const method = this.paymentMethod(order, paymentId);
    const first = order.payment_history[0];
    if (order.payment_history.length > 1 || first?.transaction_type !== 'payment')
      throw new ToolError('there should be exactly one payment for a pending order');
    if (first.payment_method_id === paymentId)
      throw new ToolError('the new payment method should be different from the current one');
    const amount = first.amount;
    if (method.source === 'gift_card' && (method.balance ?? 0) < amount)
      throw new ToolError('insufficient gift card balance to pay for the order');
    if (method.source === 'gift_card') this.moveBalance(order.user_id, paymentId, -amount);
    if (first.payment_method_id.includes('gift_card')) this.moveBalance(order.user_id, first.payment_method_id, amount);
    return this.database.orders.update(orderId, (changed) => {
      changed.payment_history.push(
        { transaction_type: 'payment', amount, payment_method_id: paymentId },
        { transaction_type: 'refund', amount, payment_method_id: first.payment_method_id },
      );
    });
  }

  private modifyUserAddress(userId: string, newAddress: Address) {
    this.user(userId);
    return this.database.users.update(userId, (changed) => {
      changed.address = newAddress;
    });
  }

  private returnItems(orderId: string, itemIds: string[], paymentId: string) {
    const order = this.order(orderId);
    if (order.status !== 'delivered') throw new ToolError('non-delivered order cannot be returned');
    this.paymentMethod(order, paymentId);
    if (!paymentId.includes('gift_card') && paymentId !== order.payment_history[0]?.payment_method_id)
      throw new ToolError('payment method should be either the original payment method or a gift card');
    const allItemIds = order.items.map((item) => item.item_id);
    for (const itemId of itemIds)
      if (count(itemIds, itemId) > count(allItemIds, itemId)) throw new ToolError('some item not found');
    return this.database.orders.update(orderId, (changed) => {
      changed.status = 'return requested';
      changed.return_items = sorted(itemIds);
      changed.return_payment_method_id = paymentId;
    });
  }
}
