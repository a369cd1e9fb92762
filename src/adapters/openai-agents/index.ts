/**
 * agentguard for the OpenAI Agents SDK: guard an agent's function tools so that the runtime decides every call before
 * it runs, from the items the model was given.
 *
 * @example
 * ```ts
 * import { Agent } from '@openai/agents';
 * import { guardAgentTools } from 'agentguard/openai-agents';
 *
 * const guard = guardAgentTools(runtime, [getReservationDetails, cancelReservation]);
 * const agent = new Agent({ name: 'Airline agent', instructions, tools: guard.tools });
 * const result = await guard.run(agent, 'Please cancel ZFA04Y');
 * ```
 */
import {
  type Agent,
  type AgentInputItem,
  type CallModelInputFilter,
  type FunctionTool,
  type NonStreamRunOptions,
  RunContext,
  type Runner,
  type RunResult,
  RunState,
  type RunToolApprovalItem,
  run as runAgent,
  StreamedRunResult,
  type StreamRunOptions,
  type Tool,
} from '@openai/agents';
import { AgentGuardError } from '../../errors.ts';
import type { Conversation } from '../../model/conversation.ts';
import { parseToolArguments } from '../../model/openai-chat.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import type { Verdict } from '../../model/verdict.ts';
import { feedbackFor } from '../../runtime/feedback.ts';
import type { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { type AdapterOptions, CallGuard, toolsInvoker } from '../guard-call.ts';
import { toolArguments } from '../tool-arguments.ts';
import { fromAgentItems } from './from-agent-items.ts';

export type { AdapterOptions } from '../guard-call.ts';
export { fromAgentItems } from './from-agent-items.ts';

// biome-ignore lint/suspicious/noExplicitAny: any function tool, whatever its context, parameters and result.
type AnyFunctionTool = FunctionTool<any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: any agent, whatever its context and output.
type AnyAgent = Agent<any, any>;

/**
 * The SDK's `run`, keeping the guarded tools' view of each run apart: same arguments, same result.
 *
 * @example
 * ```ts
 * const result = await guard.run(agent, 'Please cancel ZFA04Y', { context: sharedServices });
 * ```
 */
export interface GuardedRun {
  <TAgent extends AnyAgent, TContext = undefined>(
    agent: TAgent,
    input: string | AgentInputItem[] | RunState<TContext, TAgent>,
    options?: NonStreamRunOptions<TContext, TAgent>,
  ): Promise<RunResult<TContext, TAgent>>;
  <TAgent extends AnyAgent, TContext = undefined>(
    agent: TAgent,
    input: string | AgentInputItem[] | RunState<TContext, TAgent>,
    options?: StreamRunOptions<TContext, TAgent>,
  ): Promise<StreamedRunResult<TContext, TAgent>>;
}

/** Guarded function tools and the `run` that lets them see each run's items. */
export interface GuardedAgentTools<AgentTool extends Tool> {
  /** The tools, guarded, in the order given. */
  tools: AgentTool[];
  /**
   * Runs the agent with the SDK's `run`, so each tool call is decided in the run it was made in: a new run, or a
   * `RunState` resumed (the same `result.state`, or one restored with `RunState.fromString`). A guarded tool that
   * runs in a run not started here refuses the call with an error that says so.
   */
  run: GuardedRun;
  /** `run` on a `Runner` of yours; a `callModelInputFilter` in its config runs as a run's own would. */
  runWith(runner: Runner): GuardedRun;
  /**
   * Why an interrupted call of a state waits for approval: the feedback of the `ask` verdict (the policies and what
   * they require), decided anew from the state's items when the state was restored from a string; undefined for an
   * interruption of a tool that is not guarded here or that no policy asked about.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a state of any run, whatever its context and agent.
  reasonFor(state: RunState<any, any>, interruption: RunToolApprovalItem): Promise<string | undefined>;
}

/** What the guard knows of one run, by its `RunContext`: the items the model was last given, and its asks. */
interface RunRecord {
  items: readonly AgentInputItem[];
  asks: Map<string, Verdict>;
}

/**
 * Guards an agent's function tools. Each call is decided from the arguments the tool would run with and the items of
 * its own run before it:
 *
 * - allow: the tool runs once, with the arguments that were checked;
 * - deny: the tool does not run; the model's next turn receives `feedbackFor(verdict)` as the tool output
 *   (`onDeny: 'throw'` raises `GuardDeniedError` out of `run` instead);
 * - ask: the tool's `needsApproval` answers true, so the run stops with an interruption in `result.interruptions`
 *   (`guard.reasonFor(result.state, interruption)` says why); after `result.state.approve(item)` and
 *   `guard.run(agent, state)` the tool runs, and after `reject` it does not.
 *
 * Runs are told apart by the SDK's `RunContext` of each run, not by the context object you pass, so runs may share
 * one (the app's services). Run the agent with `guard.run` (the SDK's `run`, same arguments; `guard.runWith(runner)`
 * for a `Runner` of yours): it records the items the model is given before each model call, through a
 * `callModelInputFilter` of the run's own (yours, when given, runs after it), and, for a resumed `RunState`, the
 * state's items. Lookups the pack's guards make are answered by the
 * tools of the same name (or by `options.invoker`).
 *
 * @example
 * ```ts
 * const guard = guardAgentTools(runtime, [getReservationDetails, cancelReservation], { onVerdict: console.log });
 * const agent = new Agent({ name: 'Airline agent', tools: guard.tools });
 * let result = await guard.run(agent, input, { context: services });
 * for (const interruption of result.interruptions) {
 *   console.log(await guard.reasonFor(result.state, interruption));
 *   result.state.approve(interruption);
 * }
 * result = await guard.run(agent, result.state);
 * ```
 */
export function guardAgentTools<AgentTool extends Tool>(
  runtime: GuardRuntime,
  tools: readonly AgentTool[],
  options: AdapterOptions = {},
): GuardedAgentTools<AgentTool> {
  const functionTools = tools.map((tool) => {
    if (tool.type !== 'function') {
      throw new AgentGuardError(
        'invalid_input',
        `tool \`${tool.name}\` is a ${tool.type} tool: agentguard guards the function tools the agent runs itself`,
      );
    }
    return tool as AnyFunctionTool;
  });
  const runs = new WeakMap<RunContext<unknown>, RunRecord>();
  const live = new WeakSet<RunContext<unknown>>();
  const recordOf = (runContext: RunContext<unknown>, tool: string): RunRecord => {
    const record = runs.get(runContext);
    if (record === undefined) {
      throw new AgentGuardError(
        'invalid_input',
        `tool \`${tool}\` ran in a run agentguard did not start: run the agent with \`run\` from guardAgentTools (\`guard.run(agent, input, options)\`), so that each call is decided on the items of its own run`,
      );
    }
    return record;
  };
  const conversationOf = (runContext: RunContext<unknown>, call: ToolCall): Conversation =>
    fromAgentItems(recordOf(runContext, call.name).items, call.id);
  const byName = new Map(functionTools.map((tool) => [tool.name, tool]));
  // Lookups run the agent's own tools in the run they are made for.
  const lookupsIn = (runContext: RunContext<unknown>) =>
    toolsInvoker((name) => {
      const tool = byName.get(name);
      if (tool === undefined) return undefined;
      return (args) => tool.invoke(runContext, JSON.stringify(args));
    });
  const guard = new CallGuard(runtime, options);
  const guarded = functionTools.map(
    (tool): AnyFunctionTool => ({
      ...tool,
      needsApproval: async (runContext, input, callId) => {
        const call = { id: callId ?? '', name: tool.name, arguments: toolArguments(input, tool.name, '$.input') };
        const verdict = await guard.askFor(call, conversationOf(runContext, call), lookupsIn(runContext));
        if (verdict !== undefined) {
          recordOf(runContext, tool.name).asks.set(call.id, verdict);
          return true;
        }
        return tool.needsApproval(runContext, input, callId);
      },
      invoke: async (runContext, input, details) => {
        const id = details?.toolCall?.callId ?? '';
        const args = parseToolArguments(input, `call \`${id}\` of \`${tool.name}\``, '$.arguments');
        const call = { id, name: tool.name, arguments: args };
        const verdict = await guard.decide(call, conversationOf(runContext, call), lookupsIn(runContext));
        const approved = runContext.isToolApproved({ toolName: tool.name, callId: id }) === true;
        recordOf(runContext, tool.name).asks.delete(id);
        return guard.settle(call, verdict, approved ? 'approved' : undefined, () =>
          tool.invoke(runContext, input, details),
        );
      },
    }),
  );

  /** A guarded tool's interrupted call in a state, and the verdict that asked for it (decided anew if unknown). */
  const askOf = async (state: RunState<unknown, AnyAgent>, interruption: RunToolApprovalItem) => {
    const tool = interruption.name === undefined ? undefined : byName.get(interruption.name);
    const rawItem = interruption.rawItem;
    if (tool === undefined || rawItem.type !== 'function_call') return undefined;
    const id = rawItem.callId;
    const call = {
      id,
      name: tool.name,
      arguments: parseToolArguments(rawItem.arguments, `call \`${id}\` of \`${tool.name}\``, '$.arguments'),
    };
    const runContext = state._context;
    const verdict =
      runs.get(runContext)?.asks.get(id) ??
      (await guard.decide(call, fromAgentItems(state.history, id), lookupsIn(runContext)));
    return { call, verdict };
  };

  /** Reports the guarded calls a person rejected in a state about to resume: the SDK will not invoke them. */
  const settleRejected = async (state: RunState<unknown, AnyAgent>) => {
    for (const interruption of state.getInterruptions()) {
      const ask = await askOf(state, interruption);
      if (ask === undefined) continue;
      const { call, verdict } = ask;
      if (state._context.isToolApproved({ toolName: call.name, callId: call.id }) !== false) continue;
      runs.get(state._context)?.asks.delete(call.id);
      guard.declined(call, verdict, 'declined');
    }
  };

  const runOn = (
    start: (
      agent: AnyAgent,
      input: string | AgentInputItem[] | RunState<unknown, AnyAgent>,
      options: never,
    ) => Promise<RunResult<unknown, AnyAgent> | StreamedRunResult<unknown, AnyAgent>>,
    configured: CallModelInputFilter | undefined,
  ) =>
    (async (
      agent: AnyAgent,
      input: string | AgentInputItem[] | RunState<unknown, AnyAgent>,
      runOptions: NonStreamRunOptions<unknown> | StreamRunOptions<unknown> = {},
    ) => {
      const resumed = input instanceof RunState ? input : undefined;
      const runContext =
        resumed?._context ??
        (runOptions.context instanceof RunContext ? runOptions.context : new RunContext(runOptions.context));
      if (live.has(runContext)) {
        throw new AgentGuardError(
          'invalid_input',
          'the run context is already in a run: give each run its own (pass your services as `context`, not a `RunContext` two runs share)',
        );
      }
      live.add(runContext);
      const settled = () => {
        live.delete(runContext);
      };
      try {
        const record: RunRecord = runs.get(runContext) ?? { items: [], asks: new Map() };
        runs.set(runContext, record);
        if (resumed !== undefined) {
          record.items = resumed.history;
          await settleRejected(resumed);
        }
        const own = runOptions.callModelInputFilter ?? configured;
        // A filter of the caller's may change the items it is given; the record keeps them as the SDK held them.
        const callModelInputFilter: CallModelInputFilter = (args) => {
          if (own === undefined) {
            record.items = args.modelData.input;
            return args.modelData;
          }
          record.items = structuredClone(args.modelData.input);
          return own(args);
        };
        if (own?.preserveInputIdentity !== undefined) {
          callModelInputFilter.preserveInputIdentity = own.preserveInputIdentity;
        }
        const result = await start(agent, input, {
          ...runOptions,
          context: runContext,
          callModelInputFilter,
        } as never);
        if (result instanceof StreamedRunResult) result.completed.then(settled, settled);
        else settled();
        return result;
      } catch (error) {
        settled();
        throw error;
      }
    }) as GuardedRun;

  return {
    tools: guarded as unknown as AgentTool[],
    run: runOn(runAgent, undefined),
    runWith: (runner) =>
      runOn((agent, input, options) => runner.run(agent, input, options), runner.config.callModelInputFilter),
    reasonFor: async (state, interruption) => {
      const ask = await askOf(state, interruption);
      return ask?.verdict.decision === 'ask' ? feedbackFor(ask.verdict) : undefined;
    },
  };
}
