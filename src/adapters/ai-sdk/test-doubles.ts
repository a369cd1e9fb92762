/** Test doubles for the AI SDK adapter: a scripted mock model and the airline's tools in the AI SDK's form. */
import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { jsonSchema, type ModelMessage, type ToolSet, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import type { Airline, Line } from '../airline-fixture.ts';
import type { ScriptedStep } from '../scripted-step.ts';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function generated(step: ScriptedStep): LanguageModelV4GenerateResult {
  if ('text' in step) {
    return {
      content: [{ type: 'text', text: step.text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  }
  return {
    content: step.calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.args),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

function streamed(step: ScriptedStep): LanguageModelV4StreamPart[] {
  const result = generated(step);
  return [
    { type: 'stream-start', warnings: [] },
    ...result.content.flatMap((part): LanguageModelV4StreamPart[] =>
      part.type === 'text'
        ? [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: part.text },
            { type: 'text-end', id: 't' },
          ]
        : part.type === 'tool-call'
          ? [part]
          : [],
    ),
    { type: 'finish', usage, finishReason: result.finishReason },
  ];
}

/**
 * An AI SDK mock model (`ai/test`) that answers `generateText` and `streamText` with the scripted steps, in order, and
 * records every call.
 *
 * @example
 * ```ts
 * const model = scriptedLanguageModel([{ calls: [{ id: 'c1', name: 'think', args: {} }] }, { text: 'Done.' }]);
 * ```
 */
export function scriptedLanguageModel(steps: ScriptedStep[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: steps.map(generated),
    doStream: steps.map((step) => ({ stream: convertArrayToReadableStream(streamed(step)) })),
  });
}

/**
 * The airline's tools of those names as AI SDK tools that run on `airline`.
 *
 * @example
 * ```ts
 * const tools = airlineTools(airline, ['get_reservation_details', 'cancel_reservation']);
 * ```
 */
export function airlineTools(airline: Airline, names: readonly string[]): ToolSet {
  const tools: ToolSet = {};
  for (const spec of airline.specs(names)) {
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema<Record<string, unknown>>(spec.parameters),
      execute: async (args: Record<string, unknown>) => airline.run(spec.name, args),
    });
  }
  return tools;
}

/**
 * Lines of a conversation as AI SDK model messages.
 *
 * @example
 * ```ts
 * const messages = modelMessages(cancellationRequest('VYAAQN', 'evelyn_khan_9070', { confirmed: true }));
 * ```
 */
export function modelMessages(lines: readonly Line[]): ModelMessage[] {
  return lines.map((line) => ({ role: line.role, content: line.text }));
}
