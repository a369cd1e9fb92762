import type { TokenUsage } from '../llm/language-model.ts';

/** Calls and tokens of one model. */
export interface ModelAccount {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** True when some counts are estimated from the text (a model that reports none). */
  estimated: boolean;
}

/**
 * Counts calls and tokens per model over a run of episodes, for the report's cost line.
 *
 * @example
 * ```ts
 * const usage = new ModelUsage();
 * usage.add('openai:gpt-4o', { inputTokens: 900, outputTokens: 40 });
 * ```
 */
export class ModelUsage {
  readonly models = new Map<string, ModelAccount>();

  /** Adds one call's tokens. */
  add(model: string, usage: TokenUsage): void {
    const account = this.models.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0, estimated: false };
    account.calls++;
    account.inputTokens += usage.inputTokens;
    account.outputTokens += usage.outputTokens;
    account.estimated ||= usage.estimated === true;
    this.models.set(model, account);
  }

  /** Adds the counts of an earlier run (a resumed one's, read back from its file). */
  merge(accounts: Record<string, ModelAccount>): void {
    for (const [model, account] of Object.entries(accounts)) {
      const total = this.models.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0, estimated: false };
      total.calls += account.calls;
      total.inputTokens += account.inputTokens;
      total.outputTokens += account.outputTokens;
      total.estimated ||= account.estimated;
      this.models.set(model, total);
    }
  }

  /** The counts as a plain object, by model. */
  toJSON(): Record<string, ModelAccount> {
    return Object.fromEntries([...this.models].map(([model, account]) => [model, { ...account }]));
  }
}
