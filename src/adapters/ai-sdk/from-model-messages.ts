import type { ModelMessage, ToolResultPart } from 'ai';
import { Conversation, type Message } from '../../model/conversation.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import { toolArguments } from '../tool-arguments.ts';

const source = 'AI SDK messages';

function textOf(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

function outputText(output: ToolResultPart['output']): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'execution denied';
    default:
      return output.value.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
}

/**
 * Converts the AI SDK's model messages (what `execute` and `needsApproval` receive) into a typed `Conversation`: tool
 * calls with their arguments, tool results paired with their calls by id, text parts joined. With `before`, the
 * conversation stops at the assistant message that made the call of that id, so it holds what came before the call.
 *
 * @example
 * ```ts
 * const conversation = fromModelMessages(options.messages, options.toolCallId);
 * ```
 */
export function fromModelMessages(messages: readonly ModelMessage[], before?: string): Conversation {
  const typed: Message[] = [];
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
        typed.push({ role: 'system', text: message.content });
        break;
      case 'user':
        typed.push({ role: 'user', text: textOf(message.content) });
        break;
      case 'assistant': {
        const parts = typeof message.content === 'string' ? [] : message.content;
        if (before !== undefined && parts.some((part) => part.type === 'tool-call' && part.toolCallId === before)) {
          return new Conversation(typed);
        }
        const toolCalls: ToolCall[] = [];
        const results: Message[] = [];
        for (const [partIndex, part] of parts.entries()) {
          if (part.type === 'tool-call') {
            const location = `$[${index}].content[${partIndex}].input`;
            toolCalls.push({
              id: part.toolCallId,
              name: part.toolName,
              arguments: toolArguments(part.input, source, location),
            });
          } else if (part.type === 'tool-result') {
            // Results of tools the provider ran arrive inside the assistant message.
            results.push({
              role: 'tool',
              callId: part.toolCallId,
              name: part.toolName,
              content: outputText(part.output),
            });
          }
        }
        const text = typeof message.content === 'string' ? message.content : textOf(message.content);
        typed.push({ role: 'assistant', text, toolCalls }, ...results);
        break;
      }
      default:
        for (const part of message.content) {
          if (part.type === 'tool-result') {
            typed.push({
              role: 'tool',
              callId: part.toolCallId,
              name: part.toolName,
              content: outputText(part.output),
            });
          }
        }
    }
  }
  return new Conversation(typed);
}

/**
 * Whether a person approved the call of that id: an approval request for it that the AI SDK did not settle on its own,
 * answered by an approval response that says yes.
 *
 * @example
 * ```ts
 * const approved = approvedByPerson(options.messages, options.toolCallId);
 * ```
 */
export function approvedByPerson(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const requests = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId && part.isAutomatic !== true) {
        requests.add(part.approvalId);
      }
    }
  }
  let approved = false;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-response' && requests.has(part.approvalId)) approved = part.approved;
    }
  }
  return approved;
}
