/** One turn of a model conversation. */
export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What a build step asks a model. */
export interface ModelRequest {
  /** The build step asking, e.g. `map.create_policies`; used for accounting, recordings and file names. */
  step: string;
  system: string;
  messages: readonly ModelMessage[];
}

/** Tokens a call spent. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A model's answer. */
export interface ModelResponse {
  text: string;
  usage: TokenUsage;
}

/**
 * The one seam to any language model: a request in, text out. Providers (OpenAI, Anthropic, OpenAI-compatible
 * servers), recordings, the exchange directory and the scripted test model all implement it.
 *
 * @example
 * ```ts
 * const answer = await model.complete({ step: 'map.create_policies', system: '…', messages: [{ role: 'user', content: '…' }] });
 * ```
 */
export interface LanguageModel {
  /** Names the model, e.g. `openai:gpt-4.1`. */
  readonly id: string;
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
}
