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
import type { ModelMessage, SingleToolApprovalFunction, ToolApprovalStatus, ToolSet } from 'ai';
import { AgentGuardError } from '../../errors.ts';
import type { ToolInvoker } from '../../model/guard-context.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import { feedbackFor } from '../../runtime/feedback.ts';
import type { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { type AdapterOptions, CallGuard, toolsInvoker } from '../guard-call.ts';
import { toolArguments } from '../tool-arguments.ts';
import { approvedByPerson, fromModelMessages } from './from-model-messages.ts';

export type { AdapterOptions } from '../guard-call.ts';
export { approvedByPerson, fromModelMessages } from './from-model-messages.ts';

type AnyTool = ToolSet[string];
type ApprovalOptions = { toolCallId: string; messages: ModelMessage[]; context: unknown };
/** A guarded tool set's approval functions, by tool name, for `guardedToolApproval`. */
type ApprovalFunctions = Record<string, SingleToolApprovalFunction<unknown, unknown, unknown>>;

const approvalsOf = new WeakMap<ToolSet, ApprovalFunctions>();

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
 * - ask: the tool's `needsApproval` answers true, so the AI SDK returns a `tool-approval-request` (with the reason when
 *   `toolApproval: guardedToolApproval(tools)` is passed too); once a person approves (a `tool-approval-response` in
 *   the next call's messages) the tool runs, and a declined call does not.
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
  const approvals: ApprovalFunctions = {};
  for (const [name, tool] of Object.entries(tools)) {
    const approval = (input: unknown, approvalOptions: ApprovalOptions) =>
      approvalStatus(guard, lookups, name, tool, input, approvalOptions);
    guarded[name] = guardTool(guard, lookups, name, tool, approval);
    approvals[name] = (input, { toolCallId, messages, toolContext }) =>
      approval(input, { toolCallId, messages, context: toolContext });
  }
  approvalsOf.set(guarded, approvals);
  return guarded as Tools;
}

/**
 * The `toolApproval` option of `generateText` and `streamText` for a tool set returned by `guardTools`: the same
 * decisions as the guarded tools' `needsApproval`, but a call that needs approval carries the reason (the `ask`
 * verdict's feedback: the policies and what they require) in its `tool-approval-request`.
 *
 * @example
 * ```ts
 * const tools = guardTools(runtime, { cancel_reservation });
 * const result = await generateText({ model, messages, tools, toolApproval: guardedToolApproval(tools) });
 * for (const part of result.content) if (part.type === 'tool-approval-request') console.log(part.reason);
 * ```
 */
export function guardedToolApproval(tools: ToolSet): ApprovalFunctions {
  const approvals = approvalsOf.get(tools);
  if (approvals === undefined) {
    throw new AgentGuardError('invalid_input', 'expected a tool set returned by `guardTools`');
  }
  return approvals;
}

/** Whether a call waits for a person: `user-approval` with the reason for an `ask`, else the tool's own answer. */
async function approvalStatus(
  guard: CallGuard,
  lookups: ToolInvoker,
  name: string,
  tool: AnyTool,
  input: unknown,
  approvalOptions: ApprovalOptions,
): Promise<ToolApprovalStatus> {
  const call = toolCall(name, input, approvalOptions.toolCallId);
  const verdict = await guard.askFor(call, fromModelMessages(approvalOptions.messages, call.id), lookups);
  if (verdict !== undefined) return { type: 'user-approval', reason: feedbackFor(verdict) };
  const own = tool.needsApproval;
  const needed = typeof own === 'function' ? await own(input as never, approvalOptions as never) : (own ?? false);
  return needed ? 'user-approval' : 'not-applicable';
}

function guardTool(
  guard: CallGuard,
  lookups: ToolInvoker,
  name: string,
  tool: AnyTool,
  approval: (input: unknown, approvalOptions: ApprovalOptions) => Promise<ToolApprovalStatus>,
): AnyTool {
  const execute = tool.execute;
  if (execute === undefined) {
    throw new AgentGuardError(
      'invalid_input',
      `tool \`${name}\` has no \`execute\`: agentguard guards the tools the AI SDK runs itself`,
    );
  }
  return {
    ...tool,
    needsApproval: async (input: unknown, approvalOptions: ApprovalOptions) =>
      (await approval(input, approvalOptions)) !== 'not-applicable',
    execute: async (input: unknown, executeOptions: { toolCallId: string; messages: ModelMessage[] }) => {
      const call = toolCall(name, input, executeOptions.toolCallId);
      const verdict = await guard.decide(call, fromModelMessages(executeOptions.messages, call.id), lookups);
      const answer = approvedByPerson(executeOptions.messages, call.id) ? 'approved' : undefined;
      return guard.settle(call, verdict, answer, async () => execute(input as never, executeOptions as never));
    },
  } as AnyTool;
}
