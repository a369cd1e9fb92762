import type { AgentInputItem } from '@openai/agents';
import { Conversation, type Message } from '../../model/conversation.ts';
import { parseToolArguments } from '../../model/openai-chat.ts';
import type { ToolCall } from '../../model/tool-call.ts';

const source = 'OpenAI Agents run items';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: unknown; refusal?: unknown }) =>
        typeof part.text === 'string' ? part.text : typeof part.refusal === 'string' ? part.refusal : '',
      )
      .join('');
  }
  if (typeof content === 'object' && content !== null && typeof (content as { text?: unknown }).text === 'string') {
    return (content as { text: string }).text;
  }
  return '';
}

/**
 * Converts the items of an OpenAI Agents run (what the model is given: messages, function calls and their results)
 * into a typed `Conversation`. Function calls join the assistant message they follow, as in the chat format; results
 * keep the name and call id of the call they answer; other items (reasoning, hosted tools) are left out. With `before`,
 * the conversation stops at the assistant message that made the call of that id, so it holds what came before the
 * call.
 *
 * @example
 * ```ts
 * const conversation = fromAgentItems(result.history);
 * ```
 */
export function fromAgentItems(items: readonly AgentInputItem[], before?: string): Conversation {
  const typed: Message[] = [];
  let open: { text: string; toolCalls: ToolCall[] } | undefined;
  const close = () => {
    if (open !== undefined) typed.push({ role: 'assistant', text: open.text, toolCalls: open.toolCalls });
    open = undefined;
  };
  for (const [index, item] of items.entries()) {
    if ('role' in item) {
      close();
      if (item.role === 'assistant') open = { text: textOf(item.content), toolCalls: [] };
      else if (item.role === 'user') typed.push({ role: 'user', text: textOf(item.content) });
      else if (item.role === 'system') typed.push({ role: 'system', text: textOf(item.content) });
      continue;
    }
    if (item.type === 'function_call') {
      if (before !== undefined && item.callId === before) return new Conversation(typed);
      open ??= { text: '', toolCalls: [] };
      const location = `$[${index}].arguments`;
      open.toolCalls.push({
        id: item.callId,
        name: item.name,
        arguments: parseToolArguments(item.arguments, source, location),
      });
    } else if (item.type === 'function_call_result') {
      close();
      typed.push({ role: 'tool', callId: item.callId, name: item.name, content: textOf(item.output) });
    }
  }
  close();
  return new Conversation(typed);
}
