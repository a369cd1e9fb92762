import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentGuardError } from '../errors.ts';
import { estimateTokens, type LanguageModel, type ModelRequest, type ModelResponse } from './language-model.ts';

/**
 * A model that is a person (or any chat tool): each request is written to `<dir>/<n>-<step>.request.md`, and the
 * build waits for the answer in `<n>-<step>.answer.md` beside it. An answer is taken once the file holds text that
 * stays the same over one poll, so a file still being written is not read half-way (writing it elsewhere and renaming
 * it into place is safest). Useful where no model API is reachable. Nothing reports tokens here, so the usage is
 * estimated from the request and answer texts (`estimateTokens`) and marked so.
 *
 * @example
 * ```ts
 * const model = new ExchangeModel('exchange'); // then answer exchange/0001-map.create_policies.answer.md by hand
 * ```
 */
export class ExchangeModel implements LanguageModel {
  readonly id: string;
  private readonly dir: string;
  private readonly pollMs: number;
  private counter = 0;

  constructor(dir: string, pollMs = 500) {
    this.id = `exchange:${dir}`;
    this.dir = dir;
    this.pollMs = pollMs;
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    await mkdir(this.dir, { recursive: true });
    const base = join(this.dir, `${String(++this.counter).padStart(4, '0')}-${request.step}`);
    const transcript = request.messages.map((message) => `## ${message.role}\n\n${message.content}`).join('\n\n');
    const requestText = `# ${request.step}\n\n## system\n\n${request.system}\n\n${transcript}\n`;
    await writeFile(`${base}.request.md`, requestText);
    const answerFile = `${base}.answer.md`;
    let seen: string | undefined;
    for (;;) {
      const text = await readAnswer(answerFile);
      if (text !== undefined && text.trim() !== '' && text === seen) {
        return {
          text,
          usage: { inputTokens: estimateTokens(requestText), outputTokens: estimateTokens(text), estimated: true },
        };
      }
      seen = text;
      if (signal?.aborted) {
        throw new AgentGuardError('model_error', `no answer in \`${answerFile}\` before the time limit`);
      }
      await sleep(this.pollMs);
    }
  }
}

/** The answer file's text, or `undefined` while it does not exist. */
async function readAnswer(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
