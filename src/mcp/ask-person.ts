import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AskAnswer } from '../audit/audit-record.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Verdict } from '../model/verdict.ts';
import { feedbackFor } from '../runtime/feedback.ts';

/**
 * The person's answer: approved, or not with the reason to hand back to the agent; `answer` is what the audit records
 * (`GuardRuntime.settleAsk`).
 */
export type Approval =
  | { approved: true; answer: 'approved' }
  | { approved: false; answer: Exclude<AskAnswer, 'approved'>; reason: string };

/** Longest rendering of the arguments shown to the person. */
const maxArgumentsChars = 2_000;

function describeArguments(call: ToolCall): string {
  const text = JSON.stringify(call.arguments, null, 2);
  return text.length <= maxArgumentsChars
    ? text
    : `${text.slice(0, maxArgumentsChars)}\n… (${text.length - maxArgumentsChars} more characters)`;
}

/**
 * Asks the person behind the MCP client to approve a call whose verdict is `ask`, through an elicitation (a form
 * with one yes/no field, `approve`). Approved only when the person accepts with `approve: true`; declined, cancelled,
 * timed out, or a client that cannot elicit: not approved, with the reason. Never throws.
 *
 * @example
 * ```ts
 * const answer = await askPerson(server, call, verdict, { timeoutMs: 300_000 });
 * if (!answer.approved) return { content: [{ type: 'text', text: answer.reason }], isError: true };
 * ```
 */
export async function askPerson(
  server: Server,
  call: ToolCall,
  verdict: Verdict,
  options: { timeoutMs: number; relatedRequestId?: string | number; signal?: AbortSignal },
): Promise<Approval> {
  if (server.getClientCapabilities()?.elicitation?.form === undefined) {
    return {
      approved: false,
      answer: 'unavailable',
      reason:
        'This MCP client cannot ask a person (it does not support elicitation), so the call was refused; a person must make this change or approve it in a client that can ask.',
    };
  }
  try {
    const answer = await server.elicitInput(
      {
        mode: 'form',
        message: `${feedbackFor(verdict)}\n\nThe call's arguments:\n${describeArguments(call)}`,
        requestedSchema: {
          type: 'object',
          properties: {
            approve: { type: 'boolean', title: 'Approve', description: `Run \`${call.name}\` with these arguments` },
          },
          required: ['approve'],
        },
      },
      {
        timeout: options.timeoutMs,
        ...(options.relatedRequestId === undefined ? {} : { relatedRequestId: options.relatedRequestId }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
    if (answer.action === 'accept' && answer.content?.approve === true) return { approved: true, answer: 'approved' };
    if (answer.action === 'cancel') {
      return { approved: false, answer: 'cancelled', reason: 'The person dismissed the request.' };
    }
    return { approved: false, answer: 'declined', reason: 'The person declined the call.' };
  } catch (error) {
    return {
      approved: false,
      answer: unansweredAs(error, options.signal),
      reason: `No approval arrived (${error instanceof Error ? error.message : String(error)}), so the call was refused.`,
    };
  }
}

/** Why no answer came: the time ran out, the client cancelled the call, or the request failed. */
function unansweredAs(error: unknown, signal: AbortSignal | undefined): 'timed_out' | 'cancelled' | 'unavailable' {
  // The SDK rejects a withdrawn request with a timeout error too: the client's cancellation comes first.
  if (signal?.aborted === true) return 'cancelled';
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout ? 'timed_out' : 'unavailable';
}
