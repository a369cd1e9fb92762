/** Test doubles for the OpenAI Agents adapter: a scripted model and the airline's tools as function tools. */
import {
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type protocol,
  type StreamEvent,
  tool,
  Usage,
} from '@openai/agents';
import type { Airline, Line } from '../airline-fixture.ts';
import type { ScriptedStep } from '../scripted-step.ts';

/**
 * An OpenAI Agents model that answers `run` (streamed or not) with the scripted steps, in order, and keeps every request it was sent.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'Airline agent', model: new ScriptedAgentModel([{ text: 'Hello.' }]) });
 * ```
 */
export class ScriptedAgentModel implements Model {
  readonly requests: ModelRequest[] = [];
  private readonly steps: ScriptedStep[];

  constructor(steps: ScriptedStep[]) {
    this.steps = steps;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const step = this.steps[this.requests.length - 1];
    if (step === undefined) throw new Error(`no scripted step ${this.requests.length}`);
    const output: AgentOutputItem[] =
      'text' in step
        ? [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: step.text }],
            },
          ]
        : step.calls.map((call) => ({
            type: 'function_call',
            callId: call.id,
            name: call.name,
            arguments: JSON.stringify(call.args),
            status: 'completed',
          }));
    return { usage: new Usage(), output, responseId: `response_${this.requests.length}` };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = await this.getResponse(request);
    yield { type: 'response_started' };
    yield {
      type: 'response_done',
      response: {
        id: response.responseId ?? '',
        usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        output: response.output as protocol.StreamEventResponseCompleted['response']['output'],
      },
    };
  }
}

/**
 * The airline's tools of those names as OpenAI Agents function tools that run on `airline`.
 *
 * @example
 * ```ts
 * const tools = airlineTools(airline, ['get_reservation_details', 'cancel_reservation']);
 * ```
 */
export function airlineTools(airline: Airline, names: readonly string[]) {
  return airline.specs(names).map((spec) =>
    tool({
      name: spec.name,
      description: spec.description,
      parameters: { ...spec.parameters, additionalProperties: true } as never,
      strict: false,
      execute: async (args: unknown) => airline.run(spec.name, args as Record<string, unknown>),
    }),
  );
}

/**
 * Lines of a conversation as OpenAI Agents input items.
 *
 * @example
 * ```ts
 * const input = agentItems(cancellationRequest('VYAAQN', 'evelyn_khan_9070', { confirmed: true }));
 * ```
 */
export function agentItems(lines: readonly Line[]): AgentInputItem[] {
  return lines.map((line) =>
    line.role === 'user'
      ? { role: 'user', content: line.text }
      : { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: line.text }] },
  );
}
