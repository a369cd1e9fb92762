import { createHash } from 'node:crypto';
import type { ToolboxFunction } from './code-toolbox.ts';

/** Where answered classifications are kept between runs (the guard agent's memory keeps them). */
export interface ClassificationStore {
  classification(key: string): string[] | undefined;
  keepClassification(key: string, labels: readonly string[]): void;
}

/** A classification guard code asked for that no answer covers yet. */
export interface PendingClassification {
  key: string;
  text: string;
  question: string;
  labels: string[];
}

/**
 * The answers of `Classify`: which of a fixed list of labels apply to a text, cached by the text, the question and the
 * labels (in memory, and in a store when given). A question no answer covers is noted as pending; the guard agent
 * asks the model for the pending ones after the code has run, then runs the code again.
 *
 * @example
 * ```ts
 * const classifier = new Classifier(memory);
 * classifier.lookup('Buy a lamp', 'Which actions?', ['purchase', 'post']); // undefined: now pending
 * ```
 */
export class Classifier {
  private readonly cache = new Map<string, string[]>();
  private readonly pending = new Map<string, PendingClassification>();
  private readonly store: ClassificationStore | undefined;

  constructor(store?: ClassificationStore) {
    this.store = store;
  }

  /** The cache key of a classification: the text, the question and the labels (in any order). */
  static key(text: string, question: string, labels: readonly string[]): string {
    return createHash('sha256')
      .update(JSON.stringify([question, [...labels].sort(), text]))
      .digest('hex');
  }

  /** The labels answered for the text, or undefined, with the request noted as pending, when none is known. */
  lookup(text: string, question: string, labels: readonly string[]): string[] | undefined {
    const key = Classifier.key(text, question, labels);
    let answer = this.cache.get(key);
    if (answer === undefined) {
      answer = this.store?.classification(key);
      if (answer !== undefined) this.cache.set(key, answer);
    }
    if (answer === undefined) this.pending.set(key, { key, text, question, labels: [...labels] });
    return answer;
  }

  /** Takes the requests noted as pending since the last call. */
  takePending(): PendingClassification[] {
    const list = [...this.pending.values()];
    this.pending.clear();
    return list;
  }

  /** Records the answer to a pending request. */
  answer(request: PendingClassification, labels: readonly string[]): void {
    this.cache.set(request.key, [...labels]);
    this.store?.keepClassification(request.key, labels);
  }
}

const isLabelList = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((item) => typeof item === 'string' && item.length > 0) &&
  new Set(value).size === value.length;

/**
 * `Classify(text, question, labels)` for generated guard code: the labels that apply to the text, answered by the
 * model once per text (see `Classifier`). Inside the isolate it is synchronous: asked about a text with no answer
 * yet, it throws, the guard agent asks the model, and the code runs again; a run that met such a question never
 * decides.
 */
export function classifyFunction(classifier: Classifier): ToolboxFunction {
  return {
    name: 'Classify',
    signature: 'Classify(text: string, question: string, labels: string[]): string[]',
    description:
      'A judgement only reading the text can make, answered by a language model: which of the labels apply to the text (e.g. which of the listed actions a task involves). The model sees only the question, the labels and the text: say in the question what each label covers, as the guard request defines it. Returns those that apply, each exactly as listed, possibly none. Answers are cached by text, question and labels, so a text seen before costs no model call: keep the question and the labels fixed, and pass the text as it is.',
    run: (text, question, labels) => {
      if (typeof text !== 'string') throw new TypeError('Classify: `text` must be a string');
      if (typeof question !== 'string' || question.trim() === '')
        throw new TypeError('Classify: `question` must be a non-empty string');
      if (!isLabelList(labels)) throw new TypeError('Classify: `labels` must be a non-empty list of distinct strings');
      const answer = classifier.lookup(text, question, labels);
      if (answer === undefined)
        throw new Error(
          'Classify: no answer yet for this text; the guard agent asks the model and runs the code again',
        );
      return answer;
    },
  };
}
