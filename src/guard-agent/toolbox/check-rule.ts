/** A rule of the guard agent's CheckRule: what user information it reads, how it compares, and what breaking it means. */
export interface Rule {
  /** The key of the user information the rule reads, e.g. `age`. */
  info: string;
  operator: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';
  value: unknown;
  /** What the rule says when it is broken, e.g. "users under 18 cannot buy alcohol". */
  violation: string;
}

/** The decision of `checkRule`: denied or not, and the rules broken, by action. */
export interface RuleDecision {
  denied: boolean;
  violations: { action: string; violation: string }[];
}

function holds(actual: unknown, operator: Rule['operator'], expected: unknown): boolean {
  switch (operator) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '<':
      return typeof actual === 'number' && typeof expected === 'number' && actual < expected;
    case '<=':
      return typeof actual === 'number' && typeof expected === 'number' && actual <= expected;
    case '>':
      return typeof actual === 'number' && typeof expected === 'number' && actual > expected;
    case '>=':
      return typeof actual === 'number' && typeof expected === 'number' && actual >= expected;
    case 'in':
      return Array.isArray(expected) && expected.includes(actual);
    case 'not in':
      return Array.isArray(expected) && !expected.includes(actual);
  }
}

/**
 * CheckRule of the guard agent's toolbox: for each action the agent takes, the rules `{ info, operator, value,
 * violation }` that must hold of the user's information. Information the rule needs but the user lacks breaks it.
 *
 * @example
 * ```ts
 * checkRule({ buy_alcohol: { info: 'age', operator: '>=', value: 21, violation: 'must be 21 or older' } }, { age: 18 });
 * // { denied: true, violations: [{ action: 'buy_alcohol', violation: 'must be 21 or older' }] }
 * ```
 */
export function checkRule(
  rules: Readonly<Record<string, Rule | readonly Rule[]>>,
  user: Readonly<Record<string, unknown>>,
): RuleDecision {
  const violations: RuleDecision['violations'] = [];
  for (const [action, list] of Object.entries(rules)) {
    for (const rule of Array.isArray(list) ? list : [list]) {
      if (!Object.hasOwn(user, rule.info) || !holds(user[rule.info], rule.operator, rule.value)) {
        violations.push({ action, violation: rule.violation });
      }
    }
  }
  return { denied: violations.length > 0, violations };
}
