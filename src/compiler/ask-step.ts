import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { generateStructured } from '../llm/structured.ts';
import { contentHash } from './pack-layout.ts';
import { type PromptTemplate, stepName } from './prompt-template.ts';

/** The model, budget and records a build's steps share. */
export interface StepRunner {
  model: LanguageModel;
  budget: Budget;
  /** Time limit of one model call in milliseconds. */
  timeoutMs?: number;
  /** Where answers are kept: a step asked again with the same prompt reuses its answer, so a build resumes. */
  workDir?: string;
}

/**
 * Asks one templated step: renders the prompt, gets a schema-valid answer (see `generateStructured`), and keeps it in
 * the work folder under a hash of the prompt, so that a build that failed later resumes without asking again.
 *
 * @example
 * ```ts
 * const { lookups } = await askStep(runner, lookupsPrompt, { tool, policy, lookups: tools });
 * ```
 */
export async function askStep<Input, Output>(
  runner: StepRunner,
  template: PromptTemplate<Input, z.ZodType<Output>>,
  input: Input,
  check?: (value: Output) => string[],
): Promise<Output> {
  const prompt = template.render(input);
  const file =
    runner.workDir === undefined
      ? undefined
      : join(runner.workDir, `${stepName(template)}.${contentHash(template.system + prompt)}.json`);
  if (file !== undefined && existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Output;
  const value = await generateStructured({
    model: runner.model,
    budget: runner.budget,
    step: stepName(template),
    system: template.system,
    prompt,
    schema: template.schema,
    ...(template.subject === undefined ? {} : { subject: template.subject(input) }),
    ...(check === undefined ? {} : { check }),
    ...(runner.timeoutMs === undefined ? {} : { timeoutMs: runner.timeoutMs }),
  });
  if (runner.workDir !== undefined && file !== undefined) {
    await mkdir(runner.workDir, { recursive: true });
    await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
  }
  return value;
}
