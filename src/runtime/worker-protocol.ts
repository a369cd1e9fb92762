import type { Message } from '../model/conversation.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { PolicyOutcome } from './policy-check.ts';

/** Messages from the runtime to the guard worker. */
export type WorkerRequest =
  | {
      type: 'check';
      id: number;
      guardFile: string;
      policies: string[];
      call: ToolCall;
      messages: readonly Message[];
      now: number;
      timeoutMs: number;
    }
  | { type: 'lookup'; id: number; lookupId: number; value?: unknown; error?: string };

/** Messages from the guard worker to the runtime. */
export type WorkerReply =
  /** The guard modules are imported: per guard file, the policy ids it has checks for, or why it cannot load. */
  | { type: 'ready'; modules: Record<string, string[] | string> }
  | { type: 'result'; id: number; outcomes: PolicyOutcome[] }
  | { type: 'lookup'; id: number; lookupId: number; tool: string; args: Record<string, unknown> };
