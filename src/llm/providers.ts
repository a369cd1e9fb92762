import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type LanguageModel as AiSdkLanguageModel, generateText } from 'ai';
import { AgentGuardError } from '../errors.ts';
import { ExchangeModel } from './exchange-model.ts';
import type { LanguageModel, ModelRequest, ModelResponse } from './language-model.ts';

/** Wraps a model of the AI SDK (any of its providers) as our `LanguageModel`. */
export class AiSdkModel implements LanguageModel {
  readonly id: string;
  private readonly model: AiSdkLanguageModel;
  private readonly maxRetries: number;

  constructor(id: string, model: AiSdkLanguageModel, maxRetries = 2) {
    this.id = id;
    this.model = model;
    this.maxRetries = maxRetries;
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    try {
      const result = await generateText({
        model: this.model,
        system: request.system,
        messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
        maxRetries: this.maxRetries,
        ...(signal === undefined ? {} : { abortSignal: signal }),
      });
      return {
        text: result.text,
        usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
      };
    } catch (error) {
      throw new AgentGuardError(
        'model_error',
        `while asking \`${this.id}\` for step \`${request.step}\`: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
}

/** Settings for `createLanguageModel`; unset ones come from the environment. */
export interface ModelSettings {
  /**
   * Base URL of the provider's API: required for an OpenAI-compatible server (Ollama, vLLM, llama.cpp), optional for
   * OpenAI and Anthropic (a proxy); env `AGENTGUARD_BASE_URL`.
   */
  baseUrl?: string;
  /** HTTP retries of the provider client. Default 2. */
  maxRetries?: number;
}

/**
 * The AI SDK model of a provider's name (`openai:<model>`, `anthropic:<model>`, `openai-compatible:<model>`), for
 * callers that need the AI SDK's own model (tool calling); undefined for `exchange:<dir>`, which is not one.
 *
 * @example
 * ```ts
 * const model = createAiSdkModel('openai:gpt-4o'); // hand it to generateText
 * ```
 */
export function createAiSdkModel(
  name: string,
  settings: ModelSettings = {},
  env = process.env,
): AiSdkLanguageModel | undefined {
  const colon = name.indexOf(':');
  const provider = colon === -1 ? name : name.slice(0, colon);
  const model = colon === -1 ? '' : name.slice(colon + 1);
  if (model === '')
    throw new AgentGuardError('invalid_input', `model \`${name}\` names no model: use <provider>:<model>`);
  const baseURL = settings.baseUrl ?? env.AGENTGUARD_BASE_URL;
  const at = baseURL === undefined ? {} : { baseURL };
  switch (provider) {
    case 'openai':
      return createOpenAI({ apiKey: env.OPENAI_API_KEY ?? '', ...at }).chat(model);
    case 'anthropic':
      return createAnthropic({ apiKey: env.ANTHROPIC_API_KEY ?? '', ...at })(model);
    case 'openai-compatible': {
      if (baseURL === undefined) {
        throw new AgentGuardError(
          'invalid_input',
          `model \`${name}\` needs a base URL (--base-url or AGENTGUARD_BASE_URL)`,
        );
      }
      const apiKey = env.AGENTGUARD_API_KEY;
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
      })(model);
    }
    case 'exchange':
      return undefined;
    default:
      throw new AgentGuardError(
        'invalid_input',
        `unknown model provider \`${provider}\`: use openai, anthropic, openai-compatible or exchange`,
      );
  }
}

/**
 * Makes a model from a name: `openai:<model>` (env `OPENAI_API_KEY`), `anthropic:<model>` (env `ANTHROPIC_API_KEY`),
 * `openai-compatible:<model>` (a server at `baseUrl`, key in env `AGENTGUARD_API_KEY` if it needs one), or
 * `exchange:<dir>` (a person or any chat tool answers request files in a folder).
 *
 * @example
 * ```ts
 * const model = createLanguageModel('openai-compatible:llama3.1', { baseUrl: 'http://127.0.0.1:11434/v1' });
 * ```
 */
export function createLanguageModel(name: string, settings: ModelSettings = {}, env = process.env): LanguageModel {
  const model = createAiSdkModel(name, settings, env);
  if (model === undefined) return new ExchangeModel(name.slice(name.indexOf(':') + 1));
  return new AiSdkModel(name, model, settings.maxRetries ?? 2);
}
