/**
 * What the three framework adapters share: deciding a call from the framework's conversation, answering lookups
 * from the framework's own tools, and acting on the verdict.
 */
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
  /** `feedback` (default) hands the feedback to the model as the tool's result; `throw` raises `GuardDeniedError`. */
  onDeny?: 'feedback' | 'throw';
  /**
   * Called with every verdict the adapter acts on: when it asks a person, and when it runs or blocks a call. In
   * shadow mode this is where the decisions the policies reached (`verdict.evaluated`) are read. Errors it throws are
   * ignored: reporting never decides a call.
   */
  onVerdict?: (verdict: Verdict, call: ToolCall) => void;
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
 * return guard.settle(verdict, false, () => run(call.arguments));
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
   * Decides a call in its conversation, reporting the verdict. Lookups go to `options.invoker` when given, else to
   * `frameworkLookups` (the framework's own tools).
   */
  decide(call: ToolCall, conversation: Conversation, frameworkLookups: ToolInvoker): Promise<Verdict> {
    return this.check(call, conversation, frameworkLookups, true);
  }

  /** Decides whether a call must wait for a person: the `ask` verdict (reported), or undefined for any other. */
  async askFor(
    call: ToolCall,
    conversation: Conversation,
    frameworkLookups: ToolInvoker,
  ): Promise<Verdict | undefined> {
    const verdict = await this.check(call, conversation, frameworkLookups, false);
    if (verdict.decision !== 'ask') return undefined;
    this.report(verdict, call);
    return verdict;
  }

  /**
   * Runs the call when the verdict allows it, or when it asks and `approved` says a person approved it; otherwise
   * returns the feedback or throws `GuardDeniedError`, as the options say.
   */
  settle<Result>(verdict: Verdict, approved: boolean, run: () => Promise<Result>): Promise<Result | string> {
    return settleCall(verdict, run, { approved, ...(this.options.onDeny ? { onDeny: this.options.onDeny } : {}) });
  }

  private async check(
    call: ToolCall,
    conversation: Conversation,
    frameworkLookups: ToolInvoker,
    report: boolean,
  ): Promise<Verdict> {
    const now = this.options.now?.() ?? new Date();
    const invoker = this.options.invoker ?? frameworkLookups;
    const verdict = await this.runtime.check(call, { conversation, invoker, now });
    if (report) this.report(verdict, call);
    return verdict;
  }

  private report(verdict: Verdict, call: ToolCall): void {
    try {
      this.options.onVerdict?.(verdict, call);
    } catch {
      // Reporting never decides a call.
    }
  }
}
