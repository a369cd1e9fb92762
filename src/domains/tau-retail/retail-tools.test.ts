import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { compareResults } from '../../replay/faithfulness.ts';
import { dataHash } from '../../tau/data-hash.ts';
import { readTasks } from '../../tau/task.ts';
import { loadRetailData, RetailDatabase, retailDataDir } from './database.ts';
import { round2 } from './python-round.ts';
import type { RetailData } from './records.ts';
import { RetailTools } from './retail-tools.ts';

const data = await loadRetailData();
const fresh = () => {
  const database = new RetailDatabase(data);
  return { database, tools: new RetailTools(database) };
};
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('the tau-bench v1 retail tools', () => {
  it("reproduce what tau-bench's Python tools answered to every test task's gold actions, and their changes", async () => {
    const tasks = await readTasks(`${retailDataDir}/tasks_test.json`);
    const recorded = JSON.parse(await readFile(`${retailDataDir}/gold-results.json`, 'utf8')) as {
      results: string[];
      changed: Partial<RetailData>;
    }[];
    assert.equal(recorded.length, tasks.length);
    let errors = 0;
    for (const [index, task] of tasks.entries()) {
      const { database, tools } = fresh();
      const expected = recorded[index];
      assert.ok(expected);
      for (const [position, action] of task.actions.entries()) {
        const result = tools.run(action.name, action.kwargs);
        if (result.startsWith('Error: ')) errors++;
        assert.equal(compareResults(expected.results[position] ?? '', result), 'same', `task ${index} ${action.name}`);
      }
      const changed = new RetailDatabase({
        users: { ...data.users, ...expected.changed.users },
        orders: { ...data.orders, ...expected.changed.orders },
        products: { ...data.products, ...expected.changed.products },
      });
      assert.equal(dataHash(database.tables()), dataHash(changed.tables()), `task ${index}: the data after it`);
    }
    // The gold actions include lookups that fail in Python too (a wrong email, an order id without `W`).
    assert.equal(errors, 24);
  });

  it('find users by email (any case) or by name and zip, and say so when none matches', () => {
    const { tools } = fresh();
    assert.equal(tools.run('find_user_id_by_email', { email: 'Noah.Brown7922@example.com' }), 'noah_brown_6181');
    assert.equal(tools.run('find_user_id_by_email', { email: 'nobody@example.com' }), 'Error: user not found');
    assert.equal(
      tools.run('find_user_id_by_name_zip', { first_name: 'noah', last_name: 'BROWN', zip: '80279' }),
      'noah_brown_6181',
    );
    assert.equal(
      tools.run('find_user_id_by_name_zip', { first_name: 'Noah', last_name: 'Brown', zip: '80278' }),
      'Error: user not found',
    );
  });

  it('read records and list product types sorted by name', () => {
    const { tools } = fresh();
    assert.equal(tools.run('get_user_details', { user_id: 'nobody' }), 'Error: user not found');
    assert.equal(tools.run('get_order_details', { order_id: 'W2611340' }), 'Error: order not found');
    assert.equal(tools.run('get_product_details', { product_id: '0' }), 'Error: product not found');
    assert.equal(json(tools.run('get_order_details', { order_id: '#W2611340' })).status, 'processed');
    const types = Object.keys(json(tools.run('list_all_product_types', {})));
    assert.equal(types.length, 50);
    assert.deepEqual(types, [...types].sort());
    assert.equal(tools.run('think', { thought: 'x' }), '');
    assert.equal(tools.run('transfer_to_human_agents', { summary: 'x' }), 'Transfer successful');
    assert.equal(tools.run('nope', {}), 'Unknown action nope');
  });

  it('calculate as Python prints a rounded float', () => {
    const { tools } = fresh();
    assert.equal(tools.run('calculate', { expression: '100 + 155' }), '255.0');
    assert.equal(tools.run('calculate', { expression: '10 / 3' }), '3.33');
    assert.equal(tools.run('calculate', { expression: '1 / 0' }), 'Error: division by zero');
    assert.equal(tools.run('calculate', { expression: 'a + 1' }), 'Error: invalid characters in expression');
  });

  it('cancel: only pending orders, only the two reasons; refunds a gift card at once', () => {
    const { tools } = fresh();
    assert.equal(
      tools.run('cancel_pending_order', { order_id: '#W0', reason: 'no longer needed' }),
      'Error: order not found',
    );
    assert.equal(
      tools.run('cancel_pending_order', { order_id: '#W2611340', reason: 'no longer needed' }),
      'Error: non-pending order cannot be cancelled',
    );
    const pending = pendingOrderPaidBy('gift_card');
    assert.equal(
      tools.run('cancel_pending_order', { order_id: pending.order_id, reason: 'changed my mind' }),
      'Error: invalid reason',
    );
    const before = giftCardBalance(tools, pending);
    const cancelled = json(
      tools.run('cancel_pending_order', { order_id: pending.order_id, reason: 'ordered by mistake' }),
    );
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.cancel_reason, 'ordered by mistake');
    assert.deepEqual((cancelled.payment_history as { transaction_type: string }[]).at(-1)?.transaction_type, 'refund');
    assert.equal(giftCardBalance(tools, pending), round2(before + pending.amount));
  });

  it('modify a pending order: address, payment and items, with every refusal', () => {
    const { tools } = fresh();
    const address = { address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
    assert.equal(
      tools.run('modify_pending_order_address', { order_id: '#W2611340', ...address }),
      'Error: non-pending order cannot be modified',
    );
    const pending = pendingOrderPaidBy('credit_card');
    assert.deepEqual(
      json(tools.run('modify_pending_order_address', { order_id: pending.order_id, ...address })).address,
      address,
    );
    assert.equal(
      tools.run('modify_pending_order_payment', { order_id: pending.order_id, payment_method_id: 'gift_card_0' }),
      'Error: payment method not found',
    );
    assert.equal(
      tools.run('modify_pending_order_payment', { order_id: pending.order_id, payment_method_id: pending.method }),
      'Error: the new payment method should be different from the current one',
    );
    const item = pending.order.items[0];
    assert.ok(item);
    assert.equal(
      tools.run('modify_pending_order_items', {
        order_id: pending.order_id,
        item_ids: [item.item_id, item.item_id, item.item_id, item.item_id, item.item_id, item.item_id],
        new_item_ids: [],
        payment_method_id: pending.method,
      }),
      `Error: ${item.item_id} not found`,
    );
    assert.equal(
      tools.run('modify_pending_order_items', {
        order_id: pending.order_id,
        item_ids: [item.item_id],
        new_item_ids: [],
        payment_method_id: pending.method,
      }),
      'Error: the number of items to be exchanged should match',
    );
    assert.equal(
      tools.run('modify_pending_order_items', {
        order_id: pending.order_id,
        item_ids: [item.item_id],
        new_item_ids: ['0'],
        payment_method_id: pending.method,
      }),
      'Error: new item 0 not found or available',
    );
    const other = otherVariant(item.product_id, item.item_id);
    const modified = json(
      tools.run('modify_pending_order_items', {
        order_id: pending.order_id,
        item_ids: [item.item_id],
        new_item_ids: [other.item_id],
        payment_method_id: pending.method,
      }),
    );
    assert.equal(modified.status, 'pending (item modified)');
    assert.equal(
      tools.run('modify_pending_order_items', {
        order_id: pending.order_id,
        item_ids: [other.item_id],
        new_item_ids: [item.item_id],
        payment_method_id: pending.method,
      }),
      'Error: non-pending order cannot be modified',
    );
  });

  it('refuse what a gift card cannot pay, and a second change of payment', () => {
    const { tools } = fresh();
    // #W2443586 is pending, paid 591.95 by PayPal; its user's gift_card_2742113 holds 22.
    const order = { order_id: '#W2443586' };
    assert.equal(
      tools.run('modify_pending_order_payment', { ...order, payment_method_id: 'gift_card_2742113' }),
      'Error: insufficient gift card balance to pay for the order',
    );
    const item = data.orders['#W2443586']?.items.find((candidate) =>
      Object.values(data.products[candidate.product_id]?.variants ?? {}).some(
        (variant) => variant.available && variant.price > candidate.price + 22,
      ),
    );
    assert.ok(item);
    const dearer = Object.values(data.products[item.product_id]?.variants ?? {}).find(
      (variant) => variant.available && variant.price > item.price + 22,
    );
    assert.ok(dearer);
    assert.equal(
      tools.run('modify_pending_order_items', {
        ...order,
        item_ids: [item.item_id],
        new_item_ids: [dearer.item_id],
        payment_method_id: 'gift_card_2742113',
      }),
      'Error: insufficient gift card balance to pay for the new item',
    );
    const paid = orderWith(
      (candidate) =>
        candidate.status === 'pending' &&
        candidate.payment_history.length === 1 &&
        Object.keys(data.users[candidate.user_id]?.payment_methods ?? {}).some((id) => id.startsWith('paypal')) &&
        candidate.payment_history[0]?.payment_method_id.startsWith('credit_card') === true,
    );
    const paypal = Object.keys(data.users[paid.user_id]?.payment_methods ?? {}).find((id) => id.startsWith('paypal'));
    const changed = json(
      tools.run('modify_pending_order_payment', { order_id: paid.order_id, payment_method_id: paypal }),
    );
    assert.equal((changed.payment_history as unknown[]).length, 3);
    assert.equal(
      tools.run('modify_pending_order_payment', {
        order_id: paid.order_id,
        payment_method_id: paid.payment_history[0]?.payment_method_id,
      }),
      'Error: there should be exactly one payment for a pending order',
    );
  });

  it('exchange and return only delivered items, to an allowed payment method', () => {
    const { tools } = fresh();
    const delivered = orderWith(
      (order) =>
        order.status === 'delivered' && order.payment_history[0]?.payment_method_id.startsWith('credit_card') === true,
    );
    const item = delivered.items[0];
    assert.ok(item);
    const method = delivered.payment_history[0]?.payment_method_id as string;
    assert.equal(
      tools.run('exchange_delivered_order_items', {
        order_id: '#W2611340',
        item_ids: [],
        new_item_ids: [],
        payment_method_id: method,
      }),
      'Error: non-delivered order cannot be exchanged',
    );
    assert.equal(
      tools.run('return_delivered_order_items', { order_id: '#W2611340', item_ids: [], payment_method_id: method }),
      'Error: non-delivered order cannot be returned',
    );
    const paypal = Object.keys(data.users[delivered.user_id]?.payment_methods ?? {}).find((id) =>
      id.startsWith('paypal'),
    );
    if (paypal !== undefined)
      assert.equal(
        tools.run('return_delivered_order_items', {
          order_id: delivered.order_id,
          item_ids: [item.item_id],
          payment_method_id: paypal,
        }),
        'Error: payment method should be either the original payment method or a gift card',
      );
    assert.equal(
      tools.run('return_delivered_order_items', {
        order_id: delivered.order_id,
        item_ids: ['0'],
        payment_method_id: method,
      }),
      'Error: some item not found',
    );
    assert.equal(
      tools.run('exchange_delivered_order_items', {
        order_id: delivered.order_id,
        item_ids: [item.item_id],
        new_item_ids: [item.item_id],
        payment_method_id: 'credit_card_0',
      }),
      'Error: payment method not found',
    );
    const exchanged = json(
      tools.run('exchange_delivered_order_items', {
        order_id: delivered.order_id,
        item_ids: [item.item_id],
        new_item_ids: [item.item_id],
        payment_method_id: method,
      }),
    );
    assert.equal(exchanged.status, 'exchange requested');
    assert.equal(exchanged.exchange_price_difference, 0);
    assert.equal(
      tools.run('return_delivered_order_items', {
        order_id: delivered.order_id,
        item_ids: [item.item_id],
        payment_method_id: method,
      }),
      'Error: non-delivered order cannot be returned',
    );
  });

  it('refuse an order that does not exist, and items the order does not hold, in every write tool', () => {
    const { tools } = fresh();
    const address = { address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
    const swap = { item_ids: [], new_item_ids: [], payment_method_id: 'paypal_0' };
    for (const [name, args] of [
      ['cancel_pending_order', { reason: 'no longer needed' }],
      ['exchange_delivered_order_items', swap],
      ['modify_pending_order_address', address],
      ['modify_pending_order_items', swap],
      ['modify_pending_order_payment', { payment_method_id: 'paypal_0' }],
      ['return_delivered_order_items', { item_ids: [], payment_method_id: 'paypal_0' }],
    ] as const)
      assert.equal(tools.run(name, { order_id: '#W0000000', ...args }), 'Error: order not found', name);
    const delivered = orderWith((order) => order.status === 'delivered' && order.items.length > 0);
    const item = delivered.items[0];
    assert.ok(item);
    const method = delivered.payment_history[0]?.payment_method_id;
    const exchange = (itemIds: string[], newItemIds: string[]) =>
      tools.run('exchange_delivered_order_items', {
        order_id: delivered.order_id,
        item_ids: itemIds,
        new_item_ids: newItemIds,
        payment_method_id: method,
      });
    assert.equal(exchange(['0'], ['0']), 'Error: 0 not found');
    assert.equal(exchange([item.item_id], []), 'Error: the number of items to be exchanged should match');
    assert.equal(exchange([item.item_id], ['0']), 'Error: new item 0 not found or available');
    const unavailable = Object.values(data.products[item.product_id]?.variants ?? {}).find(
      (variant) => !variant.available,
    );
    if (unavailable !== undefined)
      assert.equal(
        exchange([item.item_id], [unavailable.item_id]),
        `Error: new item ${unavailable.item_id} not found or available`,
      );
  });

  it('change a user address, and give guards lookups as values', async () => {
    const { tools } = fresh();
    const address = { address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
    assert.equal(tools.run('modify_user_address', { user_id: 'nobody', ...address }), 'Error: user not found');
    assert.deepEqual(
      json(tools.run('modify_user_address', { user_id: 'noah_brown_6181', ...address })).address,
      address,
    );
    assert.equal(
      await tools.invoker.invoke('find_user_id_by_email', { email: 'noah.brown7922@example.com' }),
      'noah_brown_6181',
    );
    await assert.rejects(tools.invoker.invoke('get_order_details', { order_id: '#W0' }), /order not found/);
    await assert.rejects(tools.invoker.invoke('cancel_pending_order', { order_id: '#W0' }), /not a lookup/);
  });
});

describe('round2', () => {
  it("rounds as Python's round(x, 2): ties at two decimals to even, others to the nearest", () => {
    assert.equal(round2(0.125), 0.12);
    assert.equal(round2(0.375), 0.38);
    assert.equal(round2(-0.125), -0.12);
    assert.equal(round2(2.675), 2.67);
    assert.equal(round2(1.005), 1);
    assert.equal(round2(54.04 + 0.1), 54.14);
  });
});

function orderWith(test: (order: RetailData['orders'][string]) => boolean) {
  const order = Object.values(data.orders).find(test);
  assert.ok(order);
  return order;
}

function pendingOrderPaidBy(source: string) {
  const order = orderWith(
    (candidate) =>
      candidate.status === 'pending' &&
      candidate.payment_history.length === 1 &&
      candidate.payment_history[0]?.payment_method_id.startsWith(source) === true,
  );
  const payment = order.payment_history[0];
  assert.ok(payment);
  return {
    order_id: order.order_id,
    order,
    method: payment.payment_method_id,
    amount: payment.amount,
    user_id: order.user_id,
  };
}

function giftCardBalance(tools: RetailTools, pending: { user_id: string; method: string }): number {
  const user = json(tools.run('get_user_details', { user_id: pending.user_id })) as {
    payment_methods: Record<string, { balance: number }>;
  };
  return user.payment_methods[pending.method]?.balance ?? Number.NaN;
}

function otherVariant(productId: string, itemId: string) {
  const variant = Object.values(data.products[productId]?.variants ?? {}).find(
    (candidate) => candidate.available && candidate.item_id !== itemId,
  );
  assert.ok(variant);
  return variant;
}
