import { readFile } from 'node:fs/promises';
import { packagePath } from '../../package-root.ts';
import { deepFreeze } from '../tau-airline/database.ts';
import type { Order, Product, RetailData, User } from './records.ts';

/** Folder of the tau-bench retail data shipped with agentguard. */
export const retailDataDir = packagePath('data/tau-retail');

/**
 * Loads the retail data once, frozen, to be shared by every fresh `RetailDatabase`.
 *
 * @example
 * ```ts
 * const database = new RetailDatabase(await loadRetailData());
 * ```
 */
export async function loadRetailData(dir = retailDataDir): Promise<Readonly<RetailData>> {
  const read = async (name: string) => JSON.parse(await readFile(`${dir}/${name}`, 'utf8')) as unknown;
  const [users, orders, products] = await Promise.all([read('users.json'), read('orders.json'), read('products.json')]);
  return deepFreeze({ users, orders, products } as RetailData);
}

/** One table: the shared frozen records plus one run's changed copies, in the order the data file lists them. */
class Table<Row extends object> {
  private readonly base: Readonly<Record<string, Readonly<Row>>>;
  private readonly changed = new Map<string, Readonly<Row>>();

  constructor(base: Readonly<Record<string, Readonly<Row>>>) {
    this.base = base;
  }

  get(id: string): Readonly<Row> | undefined {
    return this.changed.get(id) ?? (Object.hasOwn(this.base, id) ? this.base[id] : undefined);
  }

  update(id: string, change: (row: Row) => void): Readonly<Row> | undefined {
    const stored = this.get(id);
    if (stored === undefined) return undefined;
    const copy = structuredClone(stored) as Row;
    change(copy);
    this.changed.set(id, deepFreeze(copy));
    return copy;
  }

  *entries(): Iterable<[string, Readonly<Row>]> {
    for (const id of Object.keys(this.base)) yield [id, this.get(id) as Readonly<Row>];
  }
}

/**
 * The retail database as one run sees it: the shared frozen data plus this run's own changes (copies, frozen once
 * stored), so a fresh database costs nothing and runs never see each other's changes. No retail tool adds or removes
 * a record.
 */
export class RetailDatabase {
  readonly users: Table<User>;
  readonly orders: Table<Order>;
  readonly products: Table<Product>;

  constructor(base: Readonly<RetailData>) {
    this.users = new Table(base.users);
    this.orders = new Table(base.orders);
    this.products = new Table(base.products);
  }

  /** Every table, each as its records by id: what the data hash is computed over. */
  tables(): Record<string, Iterable<[string, object]>> {
    return { users: this.users.entries(), orders: this.orders.entries(), products: this.products.entries() };
  }
}
