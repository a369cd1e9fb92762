import type { LanguageModel, ModelRequest, ModelResponse } from './language-model.ts';

/** An answer of the scripted model: fixed text, or text made from the request. */
export type ScriptedAnswer = string | ((request: ModelRequest) => string);

/**
 * A test double: answers from a script, in order, and records every request. A test double only; its answers are
 * what the test wrote, never a model's output.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel(['{"policies": []}']);
 * ```
 */
export class ScriptedModel implements LanguageModel {
  readonly id = 'scripted';
  readonly requests: ModelRequest[] = [];
  private readonly answers: ScriptedAnswer[];

  constructor(answers: readonly ScriptedAnswer[]) {
    this.answers = [...answers];
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error(`the script has no answer left for step \`${request.step}\``);
    const text = typeof answer === 'string' ? answer : answer(request);
    return { text, usage: { inputTokens: 0, outputTokens: 0 } };
  }
}
