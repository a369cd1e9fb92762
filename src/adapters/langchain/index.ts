/**
 * agentguard for LangChain.js: a middleware for `createAgent` that decides every tool call before it runs, from the
 * messages in the agent's state, and asks a person through LangGraph's human-in-the-loop interrupt.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { MemorySaver } from '@langchain/langgraph';
 * import { guardMiddleware } from 'agentguard/langchain';
 *
 * const agent = createAgent({ model, tools, middleware: [guardMiddleware(runtime, { tools })], checkpointer: new MemorySaver() });
 * ```
 */
import { interrupt } from '@langchain/langgraph';
import {
  AIMessage,
  createMiddleware,
  type DecisionType,
  type HITLRequest,
  type HITLResponse,
  ToolMessage,
} from 'langchain';
import { z } from 'zod';
import { AgentGuardError } from '../../errors.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import type { Verdict } from '../../model/verdict.ts';
import { feedbackFor } from '../../runtime/feedback.ts';
import type { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { type AdapterOptions, CallGuard, toolsInvoker } from '../guard-call.ts';
import { toolArguments } from '../tool-arguments.ts';
import { fromLangChainMessages } from './from-langchain-messages.ts';

export type { AdapterOptions } from '../guard-call.ts';
export { fromLangChainMessages } from './from-langchain-messages.ts';

/** What the middleware needs of a LangChain tool to answer lookups with it: its name and `invoke`. */
export interface LangChainTool {
  name: string;
  invoke(args: Record<string, unknown>): Promise<unknown>;
}

/** Options of the LangChain middleware. */
export interface LangChainGuardOptions extends AdapterOptions {
  /** The agent's tools, so the pack's lookups can be answered by the tools of the same name. */
  tools?: readonly LangChainTool[];
  /** What a person may answer to a call that needs approval. Default: approve, edit and reject. */
  allowedDecisions?: DecisionType[];
}

/** The state key where the middleware keeps a person's answers, by tool call id. */
const decisionsKey = 'agentguardDecisions';

const stateSchema = z.object({
  [decisionsKey]: z
    .record(z.string(), z.object({ approved: z.boolean(), call: z.string(), message: z.string().optional() }))
    .default({}),
});

type Decisions = z.output<typeof stateSchema>[typeof decisionsKey];

/** What a person approved: the tool and the arguments, as they will run. */
function approvedCall(call: ToolCall): string {
  return JSON.stringify([call.name, call.arguments]);
}

function toCall(toolCall: { id?: string; name: string; args: unknown }): ToolCall {
  const id = toolCall.id ?? '';
  return {
    id,
    name: toolCall.name,
    arguments: toolArguments(toolCall.args, `call \`${id}\` of \`${toolCall.name}\``, '$.args'),
  };
}

/**
 * A `createAgent` middleware that guards every tool call. Each call is decided from its final arguments and the
 * state's messages before it:
 *
 * - allow: the tool runs once, with the arguments that were checked;
 * - deny: the tool does not run; the model's next step receives `feedbackFor(verdict)` as the tool message
 *   (`onDeny: 'throw'` raises `GuardDeniedError` instead);
 * - ask: after the model's step the agent stops with a human-in-the-loop interrupt (`HITLRequest`, one action per call
 *   that needs approval, the feedback as its description); resume with `new Command({ resume: { decisions } })`.
 *   An approved call runs, an edited call runs if its edited arguments pass the guards, a rejected call does not run.
 *
 * The interrupt needs a checkpointer on the agent and a `thread_id` in the run's config.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [guardMiddleware(runtime, { tools })], checkpointer });
 * let state = await agent.invoke({ messages }, { configurable: { thread_id: 'one' } });
 * if (state.__interrupt__) state = await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
 * ```
 */
export function guardMiddleware(runtime: GuardRuntime, options: LangChainGuardOptions = {}) {
  const byName = new Map((options.tools ?? []).map((tool) => [tool.name, tool]));
  const lookups = toolsInvoker((name) => {
    const tool = byName.get(name);
    return tool === undefined ? undefined : (args) => tool.invoke(args);
  });
  const guard = new CallGuard(runtime, options);
  const allowedDecisions = options.allowedDecisions ?? ['approve', 'edit', 'reject'];
  return createMiddleware({
    name: 'AgentGuardMiddleware',
    stateSchema,
    afterModel: async (state) => {
      const last = state.messages.at(-1);
      if (last === undefined || !AIMessage.isInstance(last) || !last.tool_calls?.length) return undefined;
      const conversation = fromLangChainMessages(state.messages.slice(0, -1));
      const asking: { index: number; call: ToolCall; verdict: Verdict }[] = [];
      for (const [index, toolCall] of last.tool_calls.entries()) {
        const call = toCall(toolCall);
        const verdict = await guard.askFor(call, conversation, lookups);
        if (verdict !== undefined) asking.push({ index, call, verdict });
      }
      if (asking.length === 0) return undefined;
      const request: HITLRequest = {
        actionRequests: asking.map(({ call, verdict }) => ({
          name: call.name,
          args: call.arguments,
          description: feedbackFor(verdict),
        })),
        reviewConfigs: asking.map(({ call }) => ({ actionName: call.name, allowedDecisions })),
      };
      const response = interrupt<HITLRequest, HITLResponse>(request);
      if (!Array.isArray(response?.decisions) || response.decisions.length !== asking.length) {
        throw new AgentGuardError(
          'invalid_input',
          `expected ${asking.length} human decisions for the calls that need approval, got ${JSON.stringify(response?.decisions)}`,
        );
      }
      const decisions: Decisions = { ...state[decisionsKey] };
      const toolCalls = [...last.tool_calls];
      asking.forEach(({ index, call, verdict }, position) => {
        const decision = response.decisions[position];
        if (decision === undefined || !allowedDecisions.includes(decision.type)) {
          throw new AgentGuardError(
            'invalid_input',
            `decision ${JSON.stringify(decision)} is not one of ${allowedDecisions.join(', ')}`,
          );
        }
        if (decision.type === 'reject') {
          guard.declined(call, verdict, 'declined');
          decisions[call.id] = {
            approved: false,
            call: approvedCall(call),
            ...(decision.message ? { message: decision.message } : {}),
          };
        } else if (decision.type === 'approve') {
          decisions[call.id] = { approved: true, call: approvedCall(call) };
        } else {
          const edited = toCall({ id: call.id, name: decision.editedAction.name, args: decision.editedAction.args });
          decisions[call.id] = { approved: true, call: approvedCall(edited) };
          toolCalls[index] = {
            ...toolCalls[index],
            type: 'tool_call',
            id: call.id,
            name: edited.name,
            args: edited.arguments,
          };
        }
      });
      last.tool_calls = toolCalls;
      return { messages: [last], [decisionsKey]: decisions };
    },
    wrapToolCall: async (request, handler) => {
      const call = toCall(request.toolCall);
      const answer = request.state[decisionsKey]?.[call.id];
      if (answer !== undefined && !answer.approved) {
        const content = answer.message ?? `A person declined the call to \`${call.name}\`; it did not run.`;
        return new ToolMessage({ content, tool_call_id: call.id, name: call.name, status: 'error' });
      }
      const verdict = await guard.decide(call, fromLangChainMessages(request.state.messages, call.id), lookups);
      const approved = answer?.approved === true && answer.call === approvedCall(call);
      const result = await guard.settle(call, verdict, approved ? 'approved' : undefined, async () => handler(request));
      if (typeof result !== 'string') return result;
      return new ToolMessage({ content: result, tool_call_id: call.id, name: call.name, status: 'error' });
    },
  });
}
