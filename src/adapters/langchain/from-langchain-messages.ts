import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { Conversation, type Message } from '../../model/conversation.ts';
import { toolArguments } from '../tool-arguments.ts';

const source = 'LangChain agent state messages';

/**
 * Converts the messages of a LangChain agent's state into a typed `Conversation`: tool calls with their arguments,
 * tool results named after the call they answer. With `before`, the conversation stops at the AI message that made
 * the call of that id, so it holds what came before the call.
 *
 * @example
 * ```ts
 * const conversation = fromLangChainMessages(state.messages);
 * ```
 */
export function fromLangChainMessages(messages: readonly BaseMessage[], before?: string): Conversation {
  const typed: Message[] = [];
  const names = new Map<string, string>();
  for (const [index, message] of messages.entries()) {
    if (AIMessage.isInstance(message)) {
      const calls = message.tool_calls ?? [];
      if (before !== undefined && calls.some((call) => call.id === before)) break;
      const toolCalls = calls.map((call, callIndex) => {
        const id = call.id ?? '';
        names.set(id, call.name);
        const location = `$[${index}].tool_calls[${callIndex}].args`;
        return { id, name: call.name, arguments: toolArguments(call.args, source, location) };
      });
      typed.push({ role: 'assistant', text: message.text, toolCalls });
    } else if (ToolMessage.isInstance(message)) {
      const name = message.name ?? names.get(message.tool_call_id) ?? '';
      typed.push({ role: 'tool', callId: message.tool_call_id, name, content: message.text });
    } else if (HumanMessage.isInstance(message)) {
      typed.push({ role: 'user', text: message.text });
    } else if (SystemMessage.isInstance(message)) {
      typed.push({ role: 'system', text: message.text });
    }
  }
  return new Conversation(typed);
}
