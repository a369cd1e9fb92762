import { AgentGuardError } from '../errors.ts';
import type { TokenUsage } from './language-model.ts';

/** Limits on the model calls of one build. */
export interface BudgetLimits {
  maxCalls: number;
  maxTokens: number;
}

/** Calls and tokens spent by one step. */
export interface StepAccount {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Answers that failed validation and were asked again. */
  retries: number;
  /** True when some of the token counts are estimates from the text rather than the provider's counts. */
  estimated: boolean;
}

/**
 * Counts model calls and tokens per step and stops a build that would go past its limits.
 *
 * @example
 * ```ts
 * const budget = new Budget({ maxCalls: 500, maxTokens: 2_000_000 });
 * budget.reserve('map.create_policies'); // throws once the budget is spent
 * ```
 */
export class Budget {
  readonly limits: BudgetLimits;
  readonly steps = new Map<string, StepAccount>();

  constructor(limits: BudgetLimits) {
    this.limits = limits;
  }

  private account(step: string): StepAccount {
    let account = this.steps.get(step);
    if (account === undefined) {
      account = { calls: 0, inputTokens: 0, outputTokens: 0, retries: 0, estimated: false };
      this.steps.set(step, account);
    }
    return account;
  }

  /** Totals over all steps. */
  total(): StepAccount {
    const total = { calls: 0, inputTokens: 0, outputTokens: 0, retries: 0, estimated: false };
    for (const account of this.steps.values()) {
      total.estimated ||= account.estimated;
      total.calls += account.calls;
      total.inputTokens += account.inputTokens;
      total.outputTokens += account.outputTokens;
      total.retries += account.retries;
    }
    return total;
  }

  /** Takes one call from the budget for `step`; throws when no call or token is left. */
  reserve(step: string): void {
    const total = this.total();
    if (total.calls >= this.limits.maxCalls || total.inputTokens + total.outputTokens >= this.limits.maxTokens) {
      throw new AgentGuardError(
        'budget_exceeded',
        `the model budget is spent (${total.calls} of ${this.limits.maxCalls} calls, ${total.inputTokens + total.outputTokens} of ${this.limits.maxTokens} tokens${total.estimated ? ', estimated from the text' : ''}) before step \`${step}\``,
      );
    }
    this.account(step).calls++;
  }

  /** Records the tokens of a call of `step`. */
  spend(step: string, usage: TokenUsage): void {
    const account = this.account(step);
    account.inputTokens += usage.inputTokens;
    account.outputTokens += usage.outputTokens;
    if (usage.estimated === true) account.estimated = true;
  }

  /** Records that an answer of `step` was asked again. */
  retried(step: string): void {
    this.account(step).retries++;
  }
}

/**
 * The calls, retries and tokens of each step, one line per step and a total, as the build report prints them. Token
 * counts estimated from the text (a model that reports none) are marked `~` and the estimate is named.
 *
 * @example
 * ```ts
 * process.stderr.write(`${formatSpending(budget).join('\n')}\n`);
 * ```
 */
export function formatSpending(budget: Budget): string[] {
  const line = (name: string, account: StepAccount) =>
    `  ${name.padEnd(34)} ${String(account.calls).padStart(4)} calls (${account.retries} retried), ${account.estimated ? '~' : ''}${account.inputTokens + account.outputTokens} tokens`;
  const total = budget.total();
  return [
    'model calls by step:',
    ...[...budget.steps].map(([step, account]) => line(step, account)),
    line('total', total),
    ...(total.estimated
      ? ['  (~: tokens estimated from the text, about 4 characters a token; the model reported none)']
      : []),
  ];
}
