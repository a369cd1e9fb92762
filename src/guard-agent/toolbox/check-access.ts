import type { Permissions } from './grants.ts';
import type { TableAccess } from './sql-access.ts';

/** The decision of `checkAccess`: denied or not, and what could not be read, by table, in check order. */
export interface AccessDecision {
  denied: boolean;
  inaccessible: { table: string; columns: string[] }[];
}

/**
 * CheckAccess of the guard agent's toolbox: compares what a query needs with what a role may read, with
 * PostgreSQL's rules for column privileges: a table granted whole allows every column; otherwise every column read
 * must be granted, and a table read for no column (as by `count(*)`) needs at least one granted column. `needed` may
 * name a table more than once (once per reference, as `QueryAccess.checks` does); each is checked, and the tables
 * that fail come back once each, in the order of their first failure.
 *
 * @example
 * ```ts
 * checkAccess(permissions, [{ table: 'head', columns: ['age'] }]); // { denied: true, inaccessible: [{ table: 'head', columns: ['age'] }] }
 * ```
 */
export function checkAccess(allowed: Permissions, needed: readonly TableAccess[]): AccessDecision {
  const inaccessible = new Map<string, Set<string>>();
  for (const { table, columns } of needed) {
    const permission = allowed.get(table);
    if (permission?.all === true) continue;
    const granted = permission?.columns ?? new Set<string>();
    const missing = columns.filter((column) => !granted.has(column));
    if (missing.length === 0 && (columns.length > 0 || granted.size > 0)) continue;
    const failed = inaccessible.get(table) ?? new Set<string>();
    inaccessible.set(table, failed);
    for (const column of missing) failed.add(column);
  }
  return {
    denied: inaccessible.size > 0,
    inaccessible: [...inaccessible].map(([table, columns]) => ({ table, columns: [...columns] })),
  };
}
