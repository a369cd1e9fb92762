/**
 * agentguard for the OpenAI Agents SDK: guard an agent's function tools so that the runtime decides every call before
 * it runs, from the items the model was given.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { guardAgentTools } from 'agentguard/openai-agents';
 *
 * const guard = guardAgentTools(runtime, [getReservationDetails, cancelReservation]);
 * const agent = new Agent({ name: 'Airline agent', instructions, tools: guard.tools });
 * const result = await run(agent, 'Please cancel ZFA04Y', { callModelInputFilter: guard.callModelInputFilter });
 * ```
 */
import type { AgentInputItem, CallModelInputFilter, FunctionTool, RunContext, Tool } from '@openai/agents';
import { AgentGuardError } from '../../errors.ts';
import type { Conversation } from '../../model/conversation.ts';
import { parseToolArguments } from '../../model/openai-chat.ts';
import type { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { type AdapterOptions, CallGuard, toolsInvoker } from '../guard-call.ts';
import { toolArguments } from '../tool-arguments.ts';
import { fromAgentItems } from './from-agent-items.ts';

export type { AdapterOptions } from '../guard-call.ts';
export { fromAgentItems } from './from-agent-items.ts';

// biome-ignore lint/suspicious/noExplicitAny: any function tool, whatever its context, parameters and result.
type AnyFunctionTool = FunctionTool<any, any, any>;

/** Guarded function tools and the filter that lets them see the run's items. */
export interface GuardedAgentTools<AgentTool extends Tool> {
  /** The tools, guarded, in the order given. */
  tools: AgentTool[];
  /**
   * Records the items the model is given before each model call, so each tool call is decided in the conversation it
   * was made in. Pass it as the run's `callModelInputFilter` (it returns the input unchanged). A guarded tool that runs
   * in a run without it throws rather than decide blind.
   */
  callModelInputFilter: CallModelInputFilter;
}

/**
 * Guards an agent's function tools. Each call is decided from the arguments the tool would run with and the run's
 * items before it:
 *
 * - allow: the tool runs once, with the arguments that were checked;
 * - deny: the tool does not run; the model's next turn receives `feedbackFor(verdict)` as the tool output
 *   (`onDeny: 'throw'` raises `GuardDeniedError` out of `run` instead);
 * - ask: the tool's `needsApproval` answers true, so the run stops with an interruption in `result.interruptions`;
 *   after `result.state.approve(item)` and `run(agent, result.state)` the tool runs, and after `reject` it does not.
 *
 * Runs are told apart by their context object (`run(agent, input, { context })`, or the one the SDK makes when none
 * is given), so give each run its own. Lookups the pack's guards make are answered by the tools of the same name (or
 * by `options.invoker`).
 *
 * @example
 * ```ts
 * const guard = guardAgentTools(runtime, [getReservationDetails, cancelReservation], { onVerdict: console.log });
 * const agent = new Agent({ name: 'Airline agent', tools: guard.tools });
 * let result = await run(agent, input, { callModelInputFilter: guard.callModelInputFilter });
 * for (const interruption of result.interruptions) result.state.approve(interruption);
 * result = await run(agent, result.state, { callModelInputFilter: guard.callModelInputFilter });
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
  const histories = new WeakMap<object, AgentInputItem[]>();
  const conversationOf = (runContext: RunContext<unknown>, tool: string): Conversation => {
    const context = runContext.context;
    const items = typeof context === 'object' && context !== null ? histories.get(context) : undefined;
    if (items === undefined) {
      throw new AgentGuardError(
        'invalid_input',
        `tool \`${tool}\` ran in a run whose items agentguard has not seen: pass \`callModelInputFilter\` from guardAgentTools to the run, with a context object of its own`,
      );
    }
    return fromAgentItems(items);
  };
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
        if ((await guard.askFor(call, conversationOf(runContext, tool.name), lookupsIn(runContext))) !== undefined)
          return true;
        return tool.needsApproval(runContext, input, callId);
      },
      invoke: async (runContext, input, details) => {
        const id = details?.toolCall?.callId ?? '';
        const args = parseToolArguments(input, `call \`${id}\` of \`${tool.name}\``, '$.arguments');
        const call = { id, name: tool.name, arguments: args };
        const verdict = await guard.decide(call, conversationOf(runContext, tool.name), lookupsIn(runContext));
        const approved = runContext.isToolApproved({ toolName: tool.name, callId: id }) === true;
        return guard.settle(verdict, approved, () => tool.invoke(runContext, input, details));
      },
    }),
  );
  const callModelInputFilter: CallModelInputFilter = ({ modelData, context }) => {
    if (typeof context === 'object' && context !== null) histories.set(context, modelData.input);
    return modelData;
  };
  return { tools: guarded as unknown as AgentTool[], callModelInputFilter };
}
