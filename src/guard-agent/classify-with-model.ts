import { askStep, type StepRunner } from '../compiler/ask-step.ts';
import { classifyPrompt } from './agent-prompts.ts';
import type { Classifier } from './toolbox/classify.ts';

/** Runs of code on one task that may meet a new classification, each answered before the code runs again. */
const classificationRounds = 3;

/**
 * Runs code that may ask `Classify` (through `attempt`) until it asks nothing new: after a run that asked about a text
 * with no answer yet, the model is asked once per such question (its answer checked against the listed labels) and
 * the code runs again. A run that met an unanswered question never counts, whatever it returned: undefined when the
 * code still asked new questions after three runs.
 *
 * @example
 * ```ts
 * const run = await runClassified(runner, classifier, () => runCode(code, task));
 * ```
 */
export async function runClassified<Result>(
  runner: StepRunner,
  classifier: Classifier,
  attempt: () => Promise<Result>,
): Promise<Result | undefined> {
  classifier.takePending();
  for (let round = 1; ; round++) {
    const result = await attempt();
    const pending = classifier.takePending();
    if (pending.length === 0) return result;
    if (round >= classificationRounds) return undefined;
    for (const request of pending) {
      const { labels } = await askStep(runner, classifyPrompt, request, ({ labels: answer }) =>
        answer
          .filter((label) => !request.labels.includes(label))
          .map((label) => `\`${label}\` is not one of the labels`),
      );
      classifier.answer(request, [...new Set(labels)]);
    }
  }
}
