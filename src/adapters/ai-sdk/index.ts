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
import type {
  GenericToolApprovalFunction,
  ModelMessage,
  ToolApprovalConfiguration,
  ToolApprovalStatus,
  ToolSet,
} from 'ai';
import { AgentGuardError } from '../../errors.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import type { Verdict } from '../../model/verdict.ts';
import { feedbackFor } from '../../runtime/feedback.ts';
import type { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { type AdapterOptions, CallGuard, toolsInvoker } from '../guard-call.ts';
import { toolArguments } from '../tool-arguments.ts';
import { approvedByPerson, fromModelMessages } from './from-model-messages.ts';

export type { AdapterOptions } from '../guard-call.ts';
export { approvedByPerson, fromModelMessages } from './from-model-messages.ts';

type AnyTool = ToolSet[string];
type ApprovalOptions = { toolCallId: string; messages: ModelMessage[]; context: unknown };
/** What `guardedToolApproval` combines with the guard: the application's own `toolApproval` setting, if any. */
// biome-ignore lint/suspicious/noExplicitAny: the AI SDK's tool and runtime contexts are the application's own.
type OwnApproval<Tools extends ToolSet> = ToolApprovalConfiguration<Tools, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type GuardedApproval<Tools extends ToolSet> = GenericToolApprovalFunction<Tools, any, any>;

/** What a guarded tool set's calls are decided with, for `guardedToolApproval`. */
interface GuardedSet {
  guard: CallGuard;
  /** The tools as the application wrote them, by name. */
  tools: ToolSet;
  judge(name: string, input: unknown, toolCallId: string, messages: ModelMessage[]): Promise<Judged>;
}
interface Judged {
  call: ToolCall;
  verdict: Verdict;
}

const guardedSets = new WeakMap<ToolSet, GuardedSet>();

let lookupCounter = 0;

function toolCall(name: string, input: unknown, toolCallId: string): ToolCall {
  return { id: toolCallId, name, arguments: toolArguments(input, `call \`${toolCallId}\` of \`${name}\``, '$.input') };
}

/**
 * Guards every tool of an AI SDK tool set. Each call is decided from its final input (after the AI SDK's repair, or a
 * person's edit of the call before approving it) and the messages before it. Pass
 * `toolApproval: guardedToolApproval(tools)` too (AI SDK 7's approval setting; it also takes your own setting):
 *
 * - allow: the tool's `execute` runs once, with the input that was checked; a client-side tool (one without
 *   `execute`) is handed to the application as usual;
 * - deny: the call does not run. Through `guardedToolApproval` the AI SDK refuses it the way it refuses any call
 *   (`execution-denied` with `feedbackFor(verdict)` as the reason, which the model reads); without it `execute` fails
 *   with `GuardDeniedError` (a `tool-error`; the model reads the feedback as `error-text`), whatever `onDeny` says;
 * - ask: the AI SDK returns a `tool-approval-request` (with the reason through `guardedToolApproval`); once a person
 *   approves (a `tool-approval-response` in the next call's messages) the tool runs, and a declined call does not. A
 *   call that reaches `execute` without a person's approval (a `toolApproval` setting of your own that does not go
 *   through `guardedToolApproval` settled it) fails with `GuardDeniedError`, never silently.
 *
 * Client-side tools are decided in the approval path, before the call is handed to the application: without
 * `guardedToolApproval`, a denied call of one fails the generation with an `AgentGuardError`, since a tool's
 * `needsApproval` can only ask a person, not refuse. Lookups the pack's guards make are answered by the tools of the
 * same name in the set that have `execute` (or by `options.invoker`).
 *
 * @example
 * ```ts
 * const tools = guardTools(runtime, { get_reservation_details, cancel_reservation }, { now: () => new Date() });
 * const result = await generateText({ model, messages, tools, toolApproval: guardedToolApproval(tools) });
 * for (const part of result.content) if (part.type === 'tool-approval-request') console.log(part.reason);
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
  // The AI SDK reports a refused call as a tool error; a result would read as the tool's success.
  const guard = new CallGuard(runtime, { ...options, onDeny: 'throw' });
  const set: GuardedSet = {
    guard,
    tools,
    async judge(name, input, toolCallId, messages) {
      const call = toolCall(name, input, toolCallId);
      return { call, verdict: await guard.decide(call, fromModelMessages(messages, call.id), lookups) };
    },
  };
  const guarded: Record<string, AnyTool> = {};
  for (const [name, tool] of Object.entries(tools)) guarded[name] = guardTool(set, name, tool);
  guardedSets.set(guarded, set);
  return guarded as Tools;
}

/**
 * The `toolApproval` option of `generateText`, `streamText` and agents for a tool set returned by `guardTools`. A
 * guarded call that needs approval becomes a `tool-approval-request` whose `reason` is the `ask` verdict's feedback
 * (the policies and what they require); a denied call is refused (`execution-denied`, the feedback as its reason);
 * an allowed call gets `own`, your own `toolApproval` setting (a function, or a status or function per tool), else
 * the tool's `needsApproval`. Calls of tools outside the guarded set get `own` alone.
 *
 * @example
 * ```ts
 * const tools = guardTools(runtime, { cancel_reservation, send_receipt });
 * const toolApproval = guardedToolApproval(tools, { send_receipt: 'approved' });
 * const result = await generateText({ model, messages, tools, toolApproval });
 * for (const part of result.content) if (part.type === 'tool-approval-request') console.log(part.reason);
 * ```
 */
export function guardedToolApproval<Tools extends ToolSet>(
  tools: Tools,
  own?: OwnApproval<Tools>,
): GuardedApproval<Tools> {
  const set = guardedSets.get(tools);
  if (set === undefined) {
    throw new AgentGuardError('invalid_input', 'expected a tool set returned by `guardTools`');
  }
  return async (options) => {
    const { toolCall: call, messages } = options;
    const name = call.toolName;
    const ownStatus = () => ownApproval(own, options);
    const tool = Object.hasOwn(set.tools, name) ? set.tools[name] : undefined;
    if (tool === undefined) return ownStatus();
    const { call: checked, verdict } = await set.judge(name, call.input, call.toolCallId, messages);
    if (verdict.decision === 'ask') return { type: 'user-approval', reason: feedbackFor(verdict) };
    if (verdict.decision === 'deny') {
      set.guard.decided(checked, verdict);
      return { type: 'denied', reason: feedbackFor(verdict) };
    }
    if (tool.execute === undefined) set.guard.decided(checked, verdict);
    if (own !== undefined) return ownStatus();
    const context = toolContextOf(options, name);
    return (await toolNeedsApproval(tool, call.input, { toolCallId: call.toolCallId, messages, context }))
      ? 'user-approval'
      : 'not-applicable';
  };
}

/** The application's own approval status for a call, as the AI SDK would resolve it without the guard. */
async function ownApproval<Tools extends ToolSet>(
  own: OwnApproval<Tools> | undefined,
  options: Parameters<GuardedApproval<Tools>>[0],
): Promise<ToolApprovalStatus> {
  if (own === undefined) return 'not-applicable';
  if (typeof own === 'function') return own(options);
  const name = options.toolCall.toolName as keyof Tools;
  const entry = Object.hasOwn(own, name) ? own[name] : undefined;
  if (typeof entry !== 'function') return entry;
  return entry(options.toolCall.input as never, {
    toolCallId: options.toolCall.toolCallId,
    messages: options.messages,
    toolContext: toolContextOf(options, name as string) as never,
    runtimeContext: options.runtimeContext,
  });
}

function toolContextOf(options: { toolsContext: unknown }, name: string): unknown {
  return (options.toolsContext as Record<string, unknown> | undefined)?.[name];
}

async function toolNeedsApproval(tool: AnyTool, input: unknown, options: ApprovalOptions): Promise<boolean> {
  const own = tool.needsApproval;
  return typeof own === 'function' ? await own(input as never, options as never) : (own ?? false);
}

function guardTool(set: GuardedSet, name: string, tool: AnyTool): AnyTool {
  const execute = tool.execute;
  // Reached only where no `toolApproval` setting covers the tool: `needsApproval` can ask a person, never refuse.
  const needsApproval = async (input: unknown, approvalOptions: ApprovalOptions): Promise<boolean> => {
    const { call, verdict } = await set.judge(name, input, approvalOptions.toolCallId, approvalOptions.messages);
    if (verdict.decision === 'ask') return true;
    if (execute !== undefined) return verdict.decision === 'allow' && toolNeedsApproval(tool, input, approvalOptions);
    if (verdict.decision === 'deny') {
      set.guard.decided(call, verdict);
      throw new AgentGuardError(
        'guard_denied',
        `call \`${call.id}\` of client-side tool \`${name}\` is denied, and \`needsApproval\` cannot refuse it: pass \`toolApproval: guardedToolApproval(tools)\`: ${feedbackFor(verdict)}`,
      );
    }
    set.guard.decided(call, verdict);
    return toolNeedsApproval(tool, input, approvalOptions);
  };
  if (execute === undefined) return { ...tool, needsApproval } as AnyTool;
  return {
    ...tool,
    needsApproval,
    execute: async (input: unknown, executeOptions: { toolCallId: string; messages: ModelMessage[] }) => {
      const { call, verdict } = await set.judge(name, input, executeOptions.toolCallId, executeOptions.messages);
      const answer = approvedByPerson(executeOptions.messages, call.id) ? 'approved' : undefined;
      return set.guard.settle(call, verdict, answer, async () => execute(input as never, executeOptions as never));
    },
  } as AnyTool;
}
