import {
  type LanguageModel as AiSdkLanguageModel,
  type AssistantModelMessage,
  type GenericToolApprovalFunction,
  generateText,
  jsonSchema,
  type ModelMessage,
  type ToolSet,
  tool,
} from 'ai';
import { guardedToolApproval, guardTools } from '../adapters/ai-sdk/index.ts';
import { isAffirmative } from '../dialogue/affirmation.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Decision, Verdict } from '../model/verdict.ts';
import type { GuardPack } from '../pack/load-pack.ts';
import { feedbackFor } from '../runtime/feedback.ts';
import type { GuardRuntime } from '../runtime/guard-runtime.ts';
import { GuardDeniedError } from '../runtime/guard-tool.ts';
import type { TauDomain, TauEnvironment } from './domain.ts';
import { calculateReward, type RewardResult } from './reward.ts';
import type { Task } from './task.ts';
import { type ModelAccount, ModelUsage } from './usage.ts';
import { stopToken, UserSimulator } from './user-simulator.ts';

/**
 * What happens to a call the pack answers `ask` for: `user` puts the question to the simulated user and runs the call
 * when the answer is an explicit yes; `deny` treats it as denied; `allow` runs it as if a person had approved.
 */
export type AskMode = 'user' | 'deny' | 'allow';

/** The pack's verdict on one write call of a run. */
export interface CallVerdict {
  message_index: number;
  tool: string;
  arguments: Record<string, unknown>;
  /** The decision the policies reached. */
  decision: Decision;
  /** Whether the tool ran (in shadow, always; guarded, only when allowed or approved). */
  ran: boolean;
  violations: { policy: string; message: string }[];
  /**
   * The guard's time to decide the call, in microseconds: the runtime's own measure (its verdict's diagnostics), the
   * pack's lookups included, the tool's run not. Absent in runs recorded before it was measured.
   */
  duration_us?: number;
}

/** The pack that decided a run's verdicts: its folder as given and the SHA-256 of its files (`packFingerprint`). */
export interface PackUsed {
  path: string;
  sha256: string;
}

/** A loaded pack and how runs record it. */
export interface PackInUse {
  loaded: GuardPack;
  used: PackUsed;
}

/** A question an `ask` verdict put to the simulated user, and the answer. */
export interface AskExchange {
  message_index: number;
  tool: string;
  question: string;
  answer: string;
  approved: boolean;
}

/** A message of the trajectory, in the OpenAI chat format tau-bench records. */
export type TrajectoryMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

/** One run, as tau-bench's `EnvRunResult` records it, with the pack's verdicts, the asks and the tokens spent. */
export interface EpisodeResult {
  task_id: number;
  trial: number;
  reward: number;
  info: {
    task: Task;
    reward_info: RewardResult | null;
    verdicts: CallVerdict[];
    asks: AskExchange[];
    usage: Record<string, ModelAccount>;
    error?: string;
    /** The pack that decided `verdicts`; `redecided` when they were decided again from the trajectory after the run. */
    pack?: PackUsed & { redecided?: boolean };
    /** The run's wall time in milliseconds, models and tools included. */
    duration_ms?: number;
  };
  traj: TrajectoryMessage[];
}

/** How the agent's tools are guarded: enforced, in shadow (verdicts recorded, every call runs), or not at all. */
export interface Guard {
  runtime: GuardRuntime;
  /** Tools whose verdicts the run records: the pack's write tools. */
  writeTools: ReadonlySet<string>;
  /** The pack the runtime decides with, and the pack as each run records it. */
  pack?: PackInUse;
}

/** What one episode needs. */
export interface EpisodeOptions {
  domain: TauDomain;
  taskId: number;
  trial: number;
  agent: { name: string; model: AiSdkLanguageModel; temperature?: number };
  user: LanguageModel;
  /** The guard; none for an unguarded run without a pack. A runtime made with `shadow: true` records only. */
  guard?: Guard;
  ask?: AskMode;
  /** The agent's steps before the run is cut off (tau-bench: 30). */
  maxSteps?: number;
  /** The task, when not the domain's test task `taskId`. */
  task?: Task;
}

/** The tool result of a call whose arguments are not a JSON object: no guard decides it and no tool runs. */
export const notAnObject = (tool: string) => `Error: the arguments of \`${tool}\` are not a JSON object`;

function declaredTools(domain: TauDomain): ToolSet {
  const tools: ToolSet = {};
  for (const spec of domain.tools)
    tools[spec.name] = tool({ description: spec.description, inputSchema: jsonSchema(spec.parameters) });
  return tools;
}

function runnableTools(domain: TauDomain, environment: TauEnvironment): ToolSet {
  const tools: ToolSet = {};
  for (const spec of domain.tools) {
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema<Record<string, unknown>>(spec.parameters),
      execute: async (args: Record<string, unknown>) => environment.run(spec.name, args),
    });
  }
  return tools;
}

function askQuestion(call: ToolCall, reason: string | undefined): string {
  return `Before I go ahead I need your explicit approval to run ${call.name} with ${JSON.stringify(call.arguments)}.${reason === undefined ? '' : ` ${reason}`} Do you approve? Please answer yes or no.`;
}

/** Whether a call waits for a person, and why: the guarded tool set's approval, else the tool's own `needsApproval`. */
async function approvalOf(
  approval: GenericToolApprovalFunction<ToolSet, never, unknown> | undefined,
  runnableTool: ToolSet[string],
  call: ToolCall,
  messages: ModelMessage[],
): Promise<{ needed: boolean; reason?: string }> {
  if (approval !== undefined) {
    const toolCall = { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments };
    const status = await approval({
      toolCall: toolCall as never,
      tools: undefined,
      toolsContext: undefined as never,
      runtimeContext: undefined,
      messages,
    });
    if (typeof status === 'object') {
      return status.reason === undefined
        ? { needed: status.type === 'user-approval' }
        : { needed: status.type === 'user-approval', reason: status.reason };
    }
    return { needed: status === 'user-approval' };
  }
  const own = runnableTool.needsApproval;
  const options = { toolCallId: call.id, messages, context: undefined };
  return { needed: typeof own === 'function' ? await own(call.arguments as never, options as never) : own === true };
}

/**
 * Runs one tau-bench episode as tau-bench's tool-calling agent does: the policy as the system prompt, the simulated
 * user's first message, then up to `maxSteps` agent steps, each one tool call (the first, if the model makes several)
 * or one reply to the user; it ends when the user says `###STOP###` or a terminating tool runs, and is then rewarded.
 * With a guard, every call goes through the AI SDK adapter's `guardTools`: a denied call's feedback is the tool result
 * the agent sees, and an `ask` is settled as `ask` says. Model and tool failures end the run with reward 0 and the
 * error recorded, as tau-bench does.
 *
 * @example
 * ```ts
 * const result = await runEpisode({ domain, taskId: 3, trial: 0, agent: { name, model }, user });
 * ```
 */
export async function runEpisode(options: EpisodeOptions): Promise<EpisodeResult> {
  const { domain, guard } = options;
  const task = options.task ?? domain.tasks[options.taskId];
  if (task === undefined) throw new Error(`the ${domain.name} domain has no task ${options.taskId}`);
  const started = performance.now();
  const usage = new ModelUsage();
  const environment = domain.fresh();
  const traj: TrajectoryMessage[] = [{ role: 'system', content: domain.policy }];
  const verdicts: CallVerdict[] = [];
  const asks: AskExchange[] = [];
  const result: EpisodeResult = {
    task_id: options.taskId,
    trial: options.trial,
    reward: 0,
    info: {
      task,
      reward_info: null,
      verdicts,
      asks,
      usage: {},
      ...(guard?.pack === undefined ? {} : { pack: guard.pack.used }),
    },
    traj,
  };
  const lastVerdict = new Map<string, Verdict>();
  const runnable = runnableTools(domain, environment);
  const tools =
    guard === undefined
      ? runnable
      : guardTools(guard.runtime, runnable, {
          invoker: environment.invoker,
          now: () => domain.now,
          onVerdict: (verdict, call) => lastVerdict.set(call.id, verdict),
        });
  const guardedApproval = guard === undefined ? undefined : guardedToolApproval(tools);
  const declared = declaredTools(domain);
  const user = new UserSimulator(options.user, task.instruction, usage);
  const messages: ModelMessage[] = [];
  const replies: string[] = [];
  let done = false;
  try {
    const first = await user.start();
    messages.push({ role: 'user', content: first });
    traj.push({ role: 'user', content: first });
    for (let step = 0; step < (options.maxSteps ?? 30) && !done; step++) {
      const answer = await generateText({
        model: options.agent.model,
        system: domain.policy,
        messages,
        tools: declared,
        temperature: options.agent.temperature ?? 0,
      });
      usage.add(`agent ${options.agent.name}`, {
        inputTokens: answer.usage.inputTokens ?? 0,
        outputTokens: answer.usage.outputTokens ?? 0,
        estimated: answer.providerMetadata?.agentguard?.estimatedUsage === true,
      });
      const call = answer.toolCalls[0];
      if (call === undefined) {
        const reply = answer.text;
        replies.push(reply);
        messages.push({ role: 'assistant', content: reply });
        traj.push({ role: 'assistant', content: reply });
        const next = await user.reply(reply);
        messages.push({ role: 'user', content: next });
        traj.push({ role: 'user', content: next });
        done = next.includes(stopToken);
        continue;
      }
      // Arguments that are not a JSON object reach no guard and no tool (tau-bench's agent fails on them).
      const parsed = typeof call.input === 'object' && call.input !== null && !Array.isArray(call.input);
      const args = (parsed ? call.input : {}) as Record<string, unknown>;
      const assistant: ModelMessage = {
        role: 'assistant',
        content: [
          ...(answer.text === '' ? [] : [{ type: 'text' as const, text: answer.text }]),
          { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: args },
        ],
      };
      messages.push(assistant);
      traj.push({
        role: 'assistant',
        content: answer.text === '' ? null : answer.text,
        tool_calls: [
          { id: call.toolCallId, type: 'function', function: { name: call.toolName, arguments: JSON.stringify(args) } },
        ],
      });
      const settled = parsed
        ? await settleCall(tools[call.toolName], {
            id: call.toolCallId,
            name: call.toolName,
            arguments: args,
          })
        : {
            observation: notAnObject(call.toolName),
            stop: false,
            ran: false,
          };
      const observation = settled.observation ?? environment.run(call.toolName, args);
      messages.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: { type: 'text', value: observation },
          },
        ],
      });
      traj.push({ role: 'tool', tool_call_id: call.toolCallId, name: call.toolName, content: observation });
      // A terminating tool ends the episode when it ran: a blocked transfer leaves the agent to go on.
      done = settled.stop || (settled.ran && domain.terminateTools.has(call.toolName));
    }
    if (done) {
      result.info.reward_info = calculateReward(domain, task, environment.dataHash(), replies);
      result.reward = result.info.reward_info.reward;
    }
  } catch (error) {
    result.info.error = (error as Error).message;
  }
  result.info.usage = usage.toJSON();
  result.info.duration_ms = Math.round(performance.now() - started);
  return result;

  /** Runs the call through its (guarded) tool, settling an ask; records the verdict on a write call. */
  async function settleCall(
    runnableTool: ToolSet[string] | undefined,
    call: ToolCall,
  ): Promise<{ observation: string | undefined; stop: boolean; ran: boolean }> {
    // A tool the domain does not have: tau-bench answers `Unknown action`, from the environment.
    if (runnableTool?.execute === undefined) return { observation: undefined, stop: false, ran: false };
    const guardMessages = [...messages];
    const approval = await approvalOf(guardedApproval, runnableTool, call, guardMessages);
    let stop = false;
    let approved = false;
    if (approval.needed) {
      approved = options.ask === 'allow';
      if ((options.ask ?? 'user') === 'user') {
        const question = askQuestion(call, approval.reason);
        const answer = await user.reply(question);
        stop = answer.includes(stopToken);
        approved = !stop && isAffirmative(answer);
        asks.push({ message_index: traj.length - 1, tool: call.name, question, answer, approved });
      }
      if (approved) {
        const approvalId = `approval_${call.id}`;
        const asked = guardMessages.pop() as AssistantModelMessage;
        guardMessages.push({
          role: 'assistant',
          content: [
            ...(typeof asked.content === 'string' ? [] : asked.content),
            { type: 'tool-approval-request', approvalId, toolCallId: call.id },
          ],
        });
        guardMessages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] });
      }
    }
    // The adapter refuses a call the AI SDK's way, with `GuardDeniedError`; tau-bench's agent reads its feedback.
    const output = stop
      ? feedbackFor(lastVerdict.get(call.id) as Verdict)
      : await Promise.resolve(
          runnableTool.execute(call.arguments as never, { toolCallId: call.id, messages: guardMessages } as never),
        ).then(String, (error: unknown) => {
          if (error instanceof GuardDeniedError) return error.message;
          throw error;
        });
    const verdict = lastVerdict.get(call.id);
    const ran = !stop && (verdict === undefined || verdict.decision === 'allow' || approved);
    if (guard?.writeTools.has(call.name) && verdict !== undefined) {
      verdicts.push({
        message_index: traj.length - 1,
        tool: call.name,
        arguments: call.arguments,
        decision: verdict.evaluated,
        ran,
        violations: verdict.violations.map((violation) => ({ policy: violation.policy, message: violation.message })),
        duration_us: verdict.diagnostics.durationUs,
      });
    }
    return { observation: output, stop, ran };
  }
}
