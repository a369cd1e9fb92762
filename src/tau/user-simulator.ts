import type { LanguageModel, ModelMessage } from '../llm/language-model.ts';
import type { ModelUsage } from './usage.ts';

/** The token tau-bench's simulated user writes to end the conversation. */
export const stopToken = '###STOP###';

/** The user's system prompt, word for word as tau-bench's `LLMUserSimulationEnv.build_system_prompt` writes it. */
export function userSystemPrompt(instruction: string): string {
  return `You are a user interacting with an agent.\n\nInstruction: ${instruction}\n
Rules:
- Just generate one line at a time to simulate the user's message.
- Do not give away all the instruction at once. Only provide the information that is necessary for the current step.
- Do not hallucinate information that is not provided in the instruction. For example, if the agent asks for the order id but it is not mentioned in the instruction, do not make up an order id, just say you do not remember or have it.
- If the instruction goal is satisified, generate '${stopToken}' as a standalone message without anything else to end the conversation.
- Do not repeat the exact instruction in the conversation. Instead, use your own words to convey the same information.
- Try to make the conversation as natural as possible, and stick to the personalities in the instruction.`;
}

/**
 * tau-bench's simulated user (its `llm` strategy) on any model: the task's instruction in the system prompt, the
 * agent's messages as the user turns, its own as the assistant turns, opened by the agent's greeting `Hi! How can I
 * help you today?`.
 *
 * @example
 * ```ts
 * const user = new UserSimulator(createLanguageModel('openai:gpt-4o'), task.instruction, usage);
 * const first = await user.start();
 * const next = await user.reply('Could you give me your email?');
 * ```
 */
export class UserSimulator {
  private readonly model: LanguageModel;
  private readonly system: string;
  private readonly usage: ModelUsage;
  private readonly messages: ModelMessage[] = [{ role: 'user', content: 'Hi! How can I help you today?' }];

  constructor(model: LanguageModel, instruction: string, usage: ModelUsage) {
    this.model = model;
    this.system = userSystemPrompt(instruction);
    this.usage = usage;
  }

  /** The user's first message. */
  start(): Promise<string> {
    return this.generate();
  }

  /** The user's answer to the agent's message. */
  reply(agentMessage: string): Promise<string> {
    this.messages.push({ role: 'user', content: agentMessage });
    return this.generate();
  }

  private async generate(): Promise<string> {
    const response = await this.model.complete({ step: 'tau.user', system: this.system, messages: this.messages });
    this.usage.add(`user ${this.model.id}`, response.usage);
    this.messages.push({ role: 'assistant', content: response.text });
    return response.text;
  }
}
