/**
 * agentguard for the Vercel AI SDK: guard a tool set so that the runtime decides every call before it runs, from the
 * messages the AI SDK hands to the tool.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { GuardRuntime, loadPack } from 'agentguard';
 * import { guardTools } from 'agentguard/ai-sdk';
 *
 * const runtime = new GuardRuntime([await loadPack('packs/tau-airline')]);
 * const result = await generateText({ model, messages, tools: guardTools(runtime, tools), stopWhen: stepCountIs(5) });
 * ```
 */
import type { ModelMessage, ToolSet } from 'ai';
import { AgentGuardError } from '../../errors.ts';
import type { ToolInvoker } from '../../model/guard-context.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import type { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { type AdapterOptions, CallGuard, toolsInvoker } from '../guard-call.ts';
import { toolArguments } from '../tool-arguments.ts';
import { approvedByPerson, fromModelMessages } from './from-model-messages.ts';

export type { AdapterOptions } from '../guard-call.ts';
export { approvedByPerson, fromModelMessages } from './from-model-messages.ts';

type AnyTool = ToolSet[string];

let lookupCounter = 0;

function toolCall(name: string, input: unknown, toolCallId: string): ToolCall {
  return { id: toolCallId, name, arguments: toolArguments(input, `call \`${toolCallId}\` of \`${name}\``, '$.input') };
}

/**
 * Guards every tool of an AI SDK tool set. Each call is decided from its final input (after the AI SDK's repair, or a
 * person's edit of the call before approving it) and the messages before it:
 *
 * - allow: the tool's `execute` runs once, with the input that was checked;
 * - deny: `execute` does not run; the model's next step receives `feedbackFor(verdict)` as the tool result
 *   (`onDeny: 'throw'` raises `GuardDeniedError` instead);
 * - ask: the tool's `needsApproval` answers true, so the AI SDK returns a `tool-approval-request`; once a person
 *   approves (a `tool-approval-response` in the next call's messages) the tool runs, and a declined call does not.
 *
 * Every tool must have `execute`. Lookups the pack's guards make are answered by the tools of the same name in the set
 * (or by `options.invoker`).
 *
 * @example
 * ```ts
 * const tools = guardTools(runtime, { get_reservation_details, cancel_reservation }, { now: () => new Date() });
 * const result = await generateText({ model, messages, tools, stopWhen: stepCountIs(5) });
 * for (const part of result.content) if (part.type === 'tool-approval-request') console.log('needs approval', part);
 * ```
 */
export function guardTools<Tools extends ToolSet>(
  runtime: GuardRuntime,
  tools: Tools,
  options: AdapterOptions = {},
): Tools {
  const lookups = toolsInvoker((name) => {
    const execute = Object.hasOwn(tools, name) ? tools[name]?.execute : undefined;
    if (execute === undefined) return undefined;
    const id = `agentguard_lookup_${++lookupCounter}`;
    return async (args) => execute(args as never, { toolCallId: id, messages: [], context: undefined as never });
  });
  const guard = new CallGuard(runtime, options);
  const guarded: Record<string, AnyTool> = {};
  for (const [name, tool] of Object.entries(tools)) guarded[name] = guardTool(guard, lookups, name, tool);
  return guarded as Tools;
}

function guardTool(guard: CallGuard, lookups: ToolInvoker, name: string, tool: AnyTool): AnyTool {
  const execute = tool.execute;
  if (execute === undefined) {
    throw new AgentGuardError(
      'invalid_input',
      `tool \`${name}\` has no \`execute\`: agentguard guards the tools the AI SDK runs itself`,
    );
  }
  const needsApproval = tool.needsApproval;
  return {
    ...tool,
    needsApproval: async (
      input: unknown,
      approvalOptions: { toolCallId: string; messages: ModelMessage[]; context: unknown },
    ) => {
      const call = toolCall(name, input, approvalOptions.toolCallId);
      if ((await guard.askFor(call, fromModelMessages(approvalOptions.messages, call.id), lookups)) !== undefined)
        return true;
      if (typeof needsApproval === 'function') return needsApproval(input as never, approvalOptions as never);
      return needsApproval ?? false;
    },
    execute: async (input: unknown, executeOptions: { toolCallId: string; messages: ModelMessage[] }) => {
      const call = toolCall(name, input, executeOptions.toolCallId);
      const verdict = await guard.decide(call, fromModelMessages(executeOptions.messages, call.id), lookups);
      const answer = approvedByPerson(executeOptions.messages, call.id) ? 'approved' : undefined;
      return guard.settle(call, verdict, answer, async () => execute(input as never, executeOptions as never));
    },
  } as AnyTool;
}
