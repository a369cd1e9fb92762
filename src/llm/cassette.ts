import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { AgentGuardError } from '../errors.ts';
import { writeAtomically } from '../files.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import type { LanguageModel, ModelRequest, ModelResponse } from './language-model.ts';

const cassetteSchema = z.object({
  format: z.literal(1),
  /** What the answers are: a model's output, or scripted answers written by people. */
  source: z.string(),
  entries: z.array(
    z.object({
      key: z.string(),
      step: z.string(),
      /** What the request was about (see `ModelRequest.subject`), where its template says. */
      subject: z.string().optional(),
      text: z.string(),
      usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), estimated: z.boolean().optional() }),
    }),
  ),
});

/** A recording of model calls: one entry per request, keyed by a hash of the request. */
export type Cassette = z.output<typeof cassetteSchema>;

/** The key of a request: a hash of its step, system prompt and messages. */
export function requestKey(request: ModelRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.step, request.system, request.messages]))
    .digest('hex')
    .slice(0, 32);
}

/** Reads a cassette file; a malformed one throws an `InputError` with the JSON path. */
export async function readCassette(file: string): Promise<Cassette> {
  return parseInput(cassetteSchema, parseJsonText(await readFile(file, 'utf8'), file), file);
}

/** The model response a recorded entry holds. */
const responseOf = ({ text, usage }: Pick<Cassette['entries'][number], 'text' | 'usage'>): ModelResponse => {
  const { inputTokens, outputTokens, estimated } = usage;
  return { text, usage: { inputTokens, outputTokens, ...(estimated ? { estimated } : {}) } };
};

/** The recorded answers by the slot `slotOf` gives each entry (none: left out), in recorded order. */
function answersBy(
  entries: Cassette['entries'],
  slotOf: (entry: Cassette['entries'][number]) => string | undefined,
): Map<string, ModelResponse[]> {
  const answers = new Map<string, ModelResponse[]>();
  for (const entry of entries) {
    const slot = slotOf(entry);
    if (slot !== undefined) answers.set(slot, [...(answers.get(slot) ?? []), responseOf(entry)]);
  }
  return answers;
}

/** The recorded answers by request key, in recorded order. */
const answersByKey = (entries: Cassette['entries']) => answersBy(entries, (entry) => entry.key);

/** A step's name without its prompt version: `generate.test_cases@v2` is `generate.test_cases`. */
const unversioned = (step: string) => step.replace(/@v\d+$/, '');

/** Where `bySubject` keeps the answers of a step about a subject. */
const subjectSlot = ({ step, subject }: { step: string; subject?: string | undefined }) =>
  subject === undefined ? undefined : `${unversioned(step)} ${subject}`;

/**
 * Answers each request with the next answer the cassette holds for the same step, whatever the step's prompt
 * version, in recorded order: for re-keying a recording onto prompts changed since it was made, where the change left
 * the sequence of requests as it was (check that the figures come out as before). A step with no answer left throws.
 *
 * @example
 * ```ts
 * const model = inRecordedOrder(await readCassette('run.json'), 'run.json, re-keyed');
 * ```
 */
export function inRecordedOrder(cassette: Cassette, id: string): LanguageModel {
  const byStep = answersBy(cassette.entries, (entry) => unversioned(entry.step));
  return {
    id,
    complete: async (request) => {
      const answer = byStep.get(unversioned(request.step))?.shift();
      if (answer === undefined) {
        throw new AgentGuardError('model_error', `the recording has no further answer for step \`${request.step}\``);
      }
      return answer;
    },
  };
}

/**
 * Answers a request the cassette holds with its recorded answer, and any other with the next answer the cassette holds
 * for the same step, whatever the step's prompt version, and the same subject (`ModelRequest.subject`: the tool
 * mapped, the policy module written): for re-keying onto changed prompts a recording whose requests were answered side
 * by side, so that its order says nothing. A request with no such answer throws.
 *
 * @example
 * ```ts
 * const model = bySubject(await readCassette('run.json'), 'run.json, re-keyed');
 * ```
 */
export function bySubject(cassette: Cassette, id: string): LanguageModel {
  const byKey = new ReplayModel(cassette);
  const keys = new Set(cassette.entries.map((entry) => entry.key));
  const bySlot = answersBy(cassette.entries, subjectSlot);
  return {
    id,
    complete: async (request) => {
      if (keys.has(requestKey(request))) return byKey.complete(request);
      const slot = subjectSlot(request);
      const answer = slot === undefined ? undefined : bySlot.get(slot)?.shift();
      if (answer === undefined) {
        throw new AgentGuardError(
          'model_error',
          `the recording has no answer for step \`${request.step}\` about \`${request.subject ?? 'nothing named'}\``,
        );
      }
      return answer;
    },
  };
}

/**
 * Answers from a cassette: the same request gets the recorded answer; a request the cassette lacks fails with its step
 * and key, so a changed prompt is noticed rather than answered wrongly.
 */
export class ReplayModel implements LanguageModel {
  readonly id: string;
  private readonly answers: Map<string, ModelResponse[]>;

  constructor(cassette: Cassette) {
    this.id = `replay:${cassette.source}`;
    this.answers = answersByKey(cassette.entries);
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const key = requestKey(request);
    const answer = this.answers.get(key)?.shift();
    if (answer === undefined) {
      throw new AgentGuardError(
        'model_error',
        `the recording has no answer for step \`${request.step}\` (request ${key})`,
      );
    }
    return answer;
  }
}

/**
 * Passes requests to a model and records them; `save` writes the cassette. Given a file, it also saves after every
 * answer, so a long run that is stopped keeps what it was answered; `RecordingModel.resuming` picks such a run up.
 */
export class RecordingModel implements LanguageModel {
  readonly id: string;
  private readonly inner: LanguageModel;
  private readonly cassette: Cassette;
  private readonly file: string | undefined;
  /** Answers of an earlier run of the same recording, by request key, given again before the model is asked. */
  private readonly earlier: Map<string, ModelResponse[]>;
  /** The saves so far, one after another, so that a later save is never overwritten by an earlier one. */
  private saving = Promise.resolve();

  constructor(inner: LanguageModel, source = inner.id, file?: string, earlier?: Cassette) {
    this.id = inner.id;
    this.inner = inner;
    this.cassette = { format: 1, source, entries: [...(earlier?.entries ?? [])] };
    this.file = file;
    this.earlier = answersByKey(earlier?.entries ?? []);
  }

  /**
   * A recording into `file` that resumes it when it exists: a request it holds an answer for gets that answer again
   * (the model is not asked, and the entry is not repeated); every other request goes to `inner` and is added.
   *
   * @example
   * ```ts
   * const model = await RecordingModel.resuming(createLanguageModel('exchange:ex'), 'run.recording.json');
   * ```
   */
  static async resuming(inner: LanguageModel, file: string, source = inner.id): Promise<RecordingModel> {
    const earlier = existsSync(file) ? await readCassette(file) : undefined;
    return new RecordingModel(inner, earlier?.source ?? source, file, earlier);
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const key = requestKey(request);
    const again = this.earlier.get(key)?.shift();
    if (again !== undefined) return again;
    const response = await this.inner.complete(request, signal);
    const { step, subject } = request;
    this.cassette.entries.push({
      key,
      step,
      ...(subject === undefined ? {} : { subject }),
      text: response.text,
      usage: response.usage,
    });
    if (this.file !== undefined) await this.save(this.file);
    return response;
  }

  /** Writes the recording as it is now, after any save still under way. */
  async save(file: string): Promise<void> {
    const text = `${JSON.stringify(this.cassette, null, 2)}\n`;
    this.saving = this.saving.catch(() => {}).then(() => writeAtomically(file, text));
    await this.saving;
  }
}
