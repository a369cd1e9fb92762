import { z } from 'zod';
import { InputError } from '../errors.ts';
import { Conversation, type Message } from './conversation.ts';
import { jsonPath, parseInput } from './parse-input.ts';
import type { ToolCall } from './tool-call.ts';

const contentSchema = z
  .union([z.string(), z.null(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose())])
  .optional();

const toolCallSchema = z
  .object({
    id: z.string(),
    type: z.literal('function').optional(),
    function: z.object({ name: z.string(), arguments: z.string() }),
  })
  .loose();

/** Schema of one message in the OpenAI chat completions format. */
export const openAIChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['system', 'developer']), content: contentSchema }).loose(),
  z.object({ role: z.literal('user'), content: contentSchema }).loose(),
  z
    .object({ role: z.literal('assistant'), content: contentSchema, tool_calls: z.array(toolCallSchema).optional() })
    .loose(),
  z
    .object({ role: z.literal('tool'), content: contentSchema, tool_call_id: z.string(), name: z.string().optional() })
    .loose(),
]);

/** A message in the OpenAI chat completions format. */
export type OpenAIChatMessage = z.output<typeof openAIChatMessageSchema>;

function textOf(content: z.output<typeof contentSchema>): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
  return '';
}

/**
 * Reads a tool call's JSON-encoded arguments; throws an `InputError` at `location` when they are not a JSON object.
 */
export function parseToolArguments(text: string, source: string, location: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(source, [{ location, message: `arguments are not valid JSON: ${(error as Error).message}` }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(source, [{ location, message: 'expected the arguments to be a JSON object' }]);
  }
  return value as Record<string, unknown>;
}

/**
 * Converts OpenAI chat messages into a typed `Conversation`. Tool results take their tool name from the call they
 * answer when the message does not carry one.
 *
 * @example
 * ```ts
 * const conversation = fromOpenAIChat([{ role: 'user', content: 'Cancel ZFA04Y' }], 'chat.json');
 * ```
 */
export function fromOpenAIChat(value: unknown, source: string, root = '$'): Conversation {
  const messages = parseInput(z.array(openAIChatMessageSchema), value, source, { root });
  const names = new Map<string, string>();
  const typed: Message[] = messages.map((message, index): Message => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', text: textOf(message.content) };
      case 'user':
        return { role: 'user', text: textOf(message.content) };
      case 'assistant': {
        const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call, callIndex) => {
          names.set(call.id, call.function.name);
          const location = jsonPath([index, 'tool_calls', callIndex, 'function', 'arguments'], root);
          return {
            id: call.id,
            name: call.function.name,
            arguments: parseToolArguments(call.function.arguments, source, location),
          };
        });
        return { role: 'assistant', text: textOf(message.content), toolCalls };
      }
      default:
        return {
          role: 'tool',
          callId: message.tool_call_id,
          name: message.name ?? names.get(message.tool_call_id) ?? '',
          content: textOf(message.content),
        };
    }
  });
  return new Conversation(typed);
}
