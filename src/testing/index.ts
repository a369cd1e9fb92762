/**
 * Test doubles for guard authors: a lookup invoker answered by functions, and builders for conversations and
 * contexts, so guards can be tested without a live system.
 *
 * @example
 * ```ts
 * import { guardContext, mockInvoker, says } from 'agentguard/testing';
 * const context = guardContext({
 *   conversation: [says.assistant('Cancel ZFA04Y? Please confirm.'), says.user('Yes.')],
 *   invoker: mockInvoker({ get_reservation_details: () => reservation }),
 * });
 * ```
 */
import { Conversation, type Message } from '../model/conversation.ts';
import type { GuardContext, ToolInvoker } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';

/** A lookup invoker that answers with the given functions and records every call. */
export interface MockInvoker extends ToolInvoker {
  /** The lookups made, in order. */
  readonly calls: { tool: string; args: Record<string, unknown> }[];
}

/**
 * Makes a lookup invoker from one function per tool. A tool without a function, or a function that throws, makes
 * the lookup fail as a real tool would.
 */
export function mockInvoker(handlers: Record<string, (args: Record<string, unknown>) => unknown>): MockInvoker {
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  return {
    calls,
    async invoke(tool, args) {
      calls.push({ tool, args });
      const handler = handlers[tool];
      if (handler === undefined) throw new Error(`no mock answer for \`${tool}\``);
      return handler(args);
    },
  };
}

let toolCallCounter = 0;

/** Message builders for test conversations. */
export const says = {
  system: (text: string): Message => ({ role: 'system', text }),
  user: (text: string): Message => ({ role: 'user', text }),
  assistant: (text: string, toolCalls: ToolCall[] = []): Message => ({ role: 'assistant', text, toolCalls }),
  /** An assistant tool call followed by its result. */
  toolCall: (name: string, args: Record<string, unknown>, result: string): Message[] => {
    const id = `mock_call_${++toolCallCounter}`;
    return [
      { role: 'assistant', text: '', toolCalls: [{ id, name, arguments: args }] },
      { role: 'tool', callId: id, name, content: result },
    ];
  },
};

/** Builds a guard context; by default an empty conversation, no lookups, and the current time. */
export function guardContext(
  options: {
    conversation?: readonly (Message | readonly Message[])[];
    invoker?: ToolInvoker;
    now?: Date | string;
  } = {},
): GuardContext {
  const now = options.now ?? new Date();
  return {
    conversation: new Conversation((options.conversation ?? []).flat()),
    invoker: options.invoker ?? mockInvoker({}),
    now: typeof now === 'string' ? new Date(now) : now,
  };
}
