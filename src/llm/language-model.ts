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
  /** What the request is about, from its template (see `PromptTemplate.subject`); not part of its key. */
  subject?: string;
}

/** Tokens a call spent. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** True when the counts are estimated from the text (see `estimateTokens`), not reported by the provider. */
  estimated?: boolean;
}

/**
 * An estimate of the tokens of a text, for models that report none (the exchange folder): about four characters a
 * token, the rule of thumb for English text and JSON with common tokenizers. An estimate, labelled as such wherever
 * it is shown.
 *
 * @example
 * ```ts
 * estimateTokens('Cancel reservation ZFA04Y?'); // 7
 * ```
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
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
