import { z } from 'zod';
import { AgentGuardError } from '../errors.ts';
import type { Budget } from './budget.ts';
import type { LanguageModel, ModelMessage } from './language-model.ts';

/** A step that got no valid answer within its attempts; keeps the last answer for the build's records. */
export class StepFailedError extends AgentGuardError {
  readonly step: string;
  readonly lastAnswer: string;
  readonly problems: readonly string[];

  constructor(step: string, lastAnswer: string, problems: readonly string[]) {
    super('step_failed', `step \`${step}\` got no valid answer: ${problems.slice(0, 5).join('; ')}`);
    this.name = 'StepFailedError';
    this.step = step;
    this.lastAnswer = lastAnswer;
    this.problems = problems;
  }
}

/** Where a structured call goes and what it may spend. */
export interface StructuredOptions<Schema extends z.ZodType> {
  model: LanguageModel;
  budget: Budget;
  step: string;
  system: string;
  prompt: string;
  schema: Schema;
  /** What the request is about, passed on to the model (see `ModelRequest.subject`). */
  subject?: string;
  /** Further checks of a schema-valid answer; the problems it returns are sent back like schema problems. */
  check?: (value: z.output<Schema>) => string[];
  /** Answers asked for in all, the first included. Default 3. */
  attempts?: number;
  /** Time limit of one call in milliseconds. Default 120 000. */
  timeoutMs?: number;
}

/** Takes the JSON out of an answer: the whole text, or the first fenced block. */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  return JSON.parse((fenced?.[1] ?? text).trim());
}

function problemsOf(text: string, schema: z.ZodType): { value?: unknown; problems: string[] } {
  let json: unknown;
  try {
    json = extractJson(text);
  } catch (error) {
    return { problems: [`the answer is not valid JSON: ${(error as Error).message}`] };
  }
  const result = schema.safeParse(json);
  if (result.success) return { value: result.data, problems: [] };
  return {
    problems: result.error.issues.map((issue) => `${['$', ...issue.path].join('.')}: ${issue.message}`),
  };
}

/**
 * Asks a model for JSON that matches a zod schema. The prompt carries the JSON Schema; an answer that is not valid
 * JSON or does not match is sent back with the problems and asked again, up to `attempts`, each retry counted in the
 * budget. Throws `StepFailedError` with the last answer when none is valid.
 *
 * @example
 * ```ts
 * const { policies } = await generateStructured({ model, budget, step: 'map.create_policies', system, prompt, schema });
 * ```
 */
export async function generateStructured<Schema extends z.ZodType>(
  options: StructuredOptions<Schema>,
): Promise<z.output<Schema>> {
  const attempts = options.attempts ?? 3;
  const shape = JSON.stringify(z.toJSONSchema(options.schema, { io: 'input' }));
  const messages: ModelMessage[] = [
    {
      role: 'user',
      content: `${options.prompt}\n\nAnswer with one JSON value and nothing else. It must match this JSON Schema:\n${shape}`,
    },
  ];
  let last = '';
  let problems: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) options.budget.retried(options.step);
    options.budget.reserve(options.step);
    const response = await options.model.complete(
      {
        step: options.step,
        system: options.system,
        messages: [...messages],
        ...(options.subject === undefined ? {} : { subject: options.subject }),
      },
      AbortSignal.timeout(options.timeoutMs ?? 120_000),
    );
    options.budget.spend(options.step, response.usage);
    last = response.text;
    const checked = problemsOf(last, options.schema);
    if (checked.problems.length === 0) checked.problems = options.check?.(checked.value as z.output<Schema>) ?? [];
    if (checked.problems.length === 0) return checked.value as z.output<Schema>;
    problems = checked.problems;
    messages.push(
      { role: 'assistant', content: last },
      {
        role: 'user',
        content: `That answer is not valid:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with corrected JSON only.`,
      },
    );
  }
  throw new StepFailedError(options.step, last, problems);
}
