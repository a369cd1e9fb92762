/** Test doubles for the LangChain adapter: a scripted chat model and the airline's tools as LangChain tools. */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import type { Airline, Line } from '../airline-fixture.ts';
import type { ScriptedStep } from '../scripted-step.ts';

/**
 * A LangChain chat model that binds tools and answers with the scripted steps, in order, keeping the messages of every
 * call.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model: new ScriptedChatModel([{ text: 'Hello.' }]), tools: [] });
 * ```
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly received: BaseMessage[][] = [];
  private readonly steps: ScriptedStep[];

  constructor(steps: ScriptedStep[]) {
    super({});
    this.steps = steps;
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.received.push(messages);
    const step = this.steps[this.received.length - 1];
    if (step === undefined) throw new Error(`no scripted step ${this.received.length}`);
    const message =
      'text' in step
        ? new AIMessage(step.text)
        : new AIMessage({
            content: '',
            tool_calls: step.calls.map((call) => ({ ...call, type: 'tool_call' as const })),
          });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/**
 * The airline's tools of those names as LangChain tools that run on `airline`.
 *
 * @example
 * ```ts
 * const tools = airlineTools(airline, ['get_reservation_details', 'cancel_reservation']);
 * ```
 */
export function airlineTools(airline: Airline, names: readonly string[]) {
  return airline.specs(names).map((spec) =>
    tool(async (args: Record<string, unknown>) => airline.run(spec.name, args), {
      name: spec.name,
      description: spec.description,
      schema: spec.parameters,
    }),
  );
}

/**
 * Lines of a conversation as LangChain messages.
 *
 * @example
 * ```ts
 * const messages = langChainMessages(cancellationRequest('VYAAQN', 'evelyn_khan_9070', { confirmed: true }));
 * ```
 */
export function langChainMessages(lines: readonly Line[]): BaseMessage[] {
  return lines.map((line) => (line.role === 'user' ? new HumanMessage(line.text) : new AIMessage(line.text)));
}
