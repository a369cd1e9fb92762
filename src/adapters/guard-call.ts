/**
 * What the three framework adapters share: deciding a call from the framework's conversation, answering lookups
 * from the framework's own tools, and acting on the verdict.
 */

import type { AskAnswer, AskOutcome } from '../audit/audit-record.ts';
import type { Conversation } from '../model/conversation.ts';
import type { ToolInvoker } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Verdict } from '../model/verdict.ts';
import type { GuardRuntime } from '../runtime/guard-runtime.ts';
import { settleCall } from '../runtime/guard-tool.ts';

/** Options every adapter takes. */
export interface AdapterOptions {
  /**
   * Answers the pack's read-only lookups. Default: the framework's own tools of those names, whose results are read
   * as JSON. Give one when the pack needs a lookup the agent does not have as a tool.
   */
  invoker?: ToolInvoker;
  /** The policy's clock. Default: the current time. */
  now?: () => Date;
  /**
   * `feedback` (default) hands the feedback to the model as the tool's result; `throw` raises `GuardDeniedError`. The
   * AI SDK adapter refuses a call the AI SDK's own way whatever this says (see `guardTools`).
   */
  onDeny?: 'feedback' | 'throw';
  /**
   * Called once per decision the adapter acts on: when it runs or blocks a call, and, for a call that went to a
   * person, once the answer is known, with `outcome` saying what the person answered and whether the call then ran
   * (an `ask` is not reported while it waits). In shadow mode this is where the decisions the policies reached
   * (`verdict.evaluated`) are read. Errors it throws are ignored: reporting never decides a call.
   */
  onVerdict?: (verdict: Verdict, call: ToolCall, outcome?: AskOutcome) => void;
}
/** A tool of the framework, as a function of its arguments; its result may be JSON text or a value. */
export type LookupTool = (args: Record<string, unknown>) => Promise<unknown>;

/**
 * A lookup invoker answered by the framework's tools: `find` returns the tool of a name, or undefined. A string result
 * is read as JSON; text that is not JSON (such as `Error: user not found`) makes the lookup fail, as does a missing
 * tool.
 *
 * @example
 * ```ts
 * const invoker = toolsInvoker((name) => (name === 'get_user_details' ? getUser : undefined));
 * ```
 */
export function toolsInvoker(find: (name: string) => LookupTool | undefined): ToolInvoker {
  return {
    async invoke(name, args) {
      const tool = find(name);
      if (tool === undefined) throw new Error(`the agent has no tool \`${name}\` to answer the lookup`);
      const result = await tool(args);
      if (typeof result !== 'string') return result;
      try {
        return JSON.parse(result);
      } catch {
        throw new Error(`lookup \`${name}\` answered with text that is not JSON: ${result.slice(0, 200)}`);
      }
    },
  };
}

/**
 * Decides calls for an adapter and acts on the verdicts. One per guarded tool set.
 *
 * @example
 * ```ts
 * const guard = new CallGuard(runtime, options);
 * const verdict = await guard.decide(call, conversation, toolsInvoker(find));
 * return guard.settle(call, verdict, undefined, () => run(call.arguments));
 * ```
 */
export class CallGuard {
  private readonly runtime: GuardRuntime;
  private readonly options: AdapterOptions;

  constructor(runtime: GuardRuntime, options: AdapterOptions) {
    this.runtime = runtime;
    this.options = options;
  }

  /**
   * Decides a call in its conversation. Lookups go to `options.invoker` when given, else to `frameworkLookups` (the
   * framework's own tools). Nothing is reported until the verdict is acted on (`settle`, `declined`).
   */
  async decide(call: ToolCall, conversation: Conversation, frameworkLookups: ToolInvoker): Promise<Verdict> {
    const now = this.options.now?.() ?? new Date();
    const invoker = this.options.invoker ?? frameworkLookups;
    return this.runtime.check(call, { conversation, invoker, now });
  }

  /** Decides whether a call must wait for a person: the `ask` verdict, or undefined for any other. */
  async askFor(
    call: ToolCall,
    conversation: Conversation,
    frameworkLookups: ToolInvoker,
  ): Promise<Verdict | undefined> {
    const verdict = await this.decide(call, conversation, frameworkLookups);
    return verdict.decision === 'ask' ? verdict : undefined;
  }

  /**
   * Runs the call when the verdict allows it, or when it asks and `answer` says a person approved it; otherwise
   * returns the feedback or throws `GuardDeniedError`, as the options say. Reports the verdict once it is acted on;
   * when the verdict asks or a person answered, with the outcome (an `ask` without a person's approval is
   * `unavailable`), which also goes to the runtime's audit (`settleAsk`).
   */
  async settle<Result>(
    call: ToolCall,
    verdict: Verdict,
    answer: AskAnswer | undefined,
    run: () => Promise<Result>,
  ): Promise<Result | string> {
    let ran = false;
    try {
      return await settleCall(
        verdict,
        () => {
          ran = true;
          return run();
        },
        { approved: answer === 'approved', ...(this.options.onDeny ? { onDeny: this.options.onDeny } : {}) },
      );
    } finally {
      const asked = verdict.decision === 'ask' || answer !== undefined;
      this.report(verdict, call, asked ? { answer: answer ?? 'unavailable', ran } : undefined);
    }
  }

  /**
   * Reports a verdict the framework acts on by itself, outside `settle`: a call it refuses before any tool code runs,
   * or a call it hands to the application to run.
   */
  decided(call: ToolCall, verdict: Verdict): void {
    this.report(verdict, call, undefined);
  }

  /** Reports a call a person answered that the framework then did not run (declined, or never answered). */
  declined(call: ToolCall, verdict: Verdict, answer: Exclude<AskAnswer, 'approved'>): void {
    this.report(verdict, call, { answer, ran: false });
  }

  private report(verdict: Verdict, call: ToolCall, outcome: AskOutcome | undefined): void {
    if (outcome !== undefined) this.runtime.settleAsk(call, outcome);
    try {
      if (outcome === undefined) this.options.onVerdict?.(verdict, call);
      else this.options.onVerdict?.(verdict, call, outcome);
    } catch {
      // Reporting never decides a call.
    }
  }
}
