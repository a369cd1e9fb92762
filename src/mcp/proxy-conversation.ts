import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Conversation, type Message } from '../model/conversation.ts';
import type { ToolCall } from '../model/tool-call.ts';

/** The text of a tool result: its text blocks joined, other blocks named by their type. */
export function resultText(result: CallToolResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
  return result.isError === true && !text.startsWith('Error') ? `Error: ${text}` : text;
}

/**
 * The conversation of one proxy session, as the guards see it. MCP carries no chat history, so it holds what the
 * proxy saw: each call it forwarded to the upstream, as an assistant message with that tool call, followed by the
 * upstream's result as a tool message (prefixed `Error: ` when the tool failed). Refused calls are not in it: they
 * did not run.
 */
export class ProxyConversation {
  private readonly messages: Message[] = [];
  private calls = 0;

  /** A call id for the next call of this session. */
  nextCallId(): string {
    return `call_${++this.calls}`;
  }

  /** The conversation so far. */
  current(): Conversation {
    return new Conversation([...this.messages]);
  }

  /** Adds a forwarded call and its result. */
  record(call: ToolCall, result: CallToolResult): void {
    this.messages.push(
      { role: 'assistant', text: '', toolCalls: [call] },
      { role: 'tool', callId: call.id, name: call.name, content: resultText(result) },
    );
  }
}
