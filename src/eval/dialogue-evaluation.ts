/**
 * Measures the conversation's questions (`agreed`, `stated`, `chose`, `reasonGiven`, `askedAbout`, `requested`) on
 * a labelled corpus of conversation facts: per question, the precision and recall of yes and of no, the unsure rate,
 * and every yes where the label says no (a fail-open reading).
 */
import { z } from 'zod';
import type { Answer } from '../dialogue/affirmation.ts';
import type { DomainDescription } from '../dialogue/domain-description.ts';
import type { Fact, ReasonOptions } from '../dialogue/facts.ts';
import type { Conversation } from '../model/conversation.ts';
import { fromOpenAIChat } from '../model/openai-chat.ts';

const answer = z.enum(['yes', 'no', 'unsure']);
const questions = ['agreed', 'stated', 'chose', 'reasonGiven', 'askedAbout', 'requested'] as const;

/** Schema of the corpus (`data/dialogue/facts.json`). */
export const dialogueCorpusSchema = z.object({
  description: z.string(),
  /** Domain descriptions given inline, by domain; the others come from their packs. */
  domains: z.record(z.string(), z.unknown()),
  items: z.array(
    z.object({
      domain: z.string(),
      /** The conversation through the message read: a recorded run up to a message index, or written out. */
      source: z.union([
        z.object({ trajectory: z.string(), through: z.number().int().min(0) }),
        z.object({ conversation: z.array(z.unknown()) }),
      ]),
      question: z.enum(questions),
      /** The question's argument, as a check passes it. */
      request: z.record(z.string(), z.unknown()),
      label: answer,
      note: z.string(),
    }),
  ),
});

/** The labelled corpus. */
export type DialogueCorpus = z.output<typeof dialogueCorpusSchema>;
type Item = DialogueCorpus['items'][number];

/** The figures of one question. */
export interface QuestionScores {
  items: number;
  /** Counts by label, then by the answer read. */
  confusion: Record<Answer, Record<Answer, number>>;
  yes: { precision: number; recall: number };
  no: { precision: number; recall: number };
  /** Share of items read unsure. */
  unsureRate: number;
  /** Items read yes where the label says no. */
  failOpen: readonly string[];
}

/** The evaluation: per question, then all questions pooled, and every item read otherwise than labelled. */
export interface DialogueEvaluation {
  questions: Record<string, QuestionScores>;
  pooled: QuestionScores;
  misread: readonly { item: string; label: Answer; read: Answer; note: string }[];
}

/** Asks an item's question of its conversation. */
function ask(conversation: Conversation, item: Item, domain: DomainDescription | undefined): Fact {
  const request = item.request as never;
  switch (item.question) {
    case 'agreed':
      return conversation.agreed(request);
    case 'stated':
      return conversation.stated(request, domain);
    case 'chose':
      return conversation.chose(request);
    case 'reasonGiven': {
      const { reasons, ...options }: { reasons: Record<string, string[]> } & ReasonOptions = request;
      return conversation.reasonGiven(reasons, options);
    }
    case 'askedAbout':
      return conversation.askedAbout((item.request as { about: string[] }).about);
    case 'requested':
      return conversation.requested((item.request as { about: string[] }).about);
  }
}

const share = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);

function scores(read: readonly { label: Answer; read: Answer; item: string }[]): QuestionScores {
  const confusion = Object.fromEntries(
    answer.options.map((label) => [label, Object.fromEntries(answer.options.map((value) => [value, 0]))]),
  ) as Record<Answer, Record<Answer, number>>;
  for (const { label, read: value } of read) confusion[label][value]++;
  const of = (value: 'yes' | 'no') => {
    const right = confusion[value][value];
    const readAs = answer.options.reduce((sum, label) => sum + confusion[label][value], 0);
    const labelled = answer.options.reduce((sum, found) => sum + confusion[value][found], 0);
    return { precision: share(right, readAs), recall: share(right, labelled) };
  };
  return {
    items: read.length,
    confusion,
    yes: of('yes'),
    no: of('no'),
    unsureRate: read.length === 0 ? 0 : read.filter((item) => item.read === 'unsure').length / read.length,
    failOpen: read.filter((item) => item.label === 'no' && item.read === 'yes').map((item) => item.item),
  };
}

/**
 * Reads every item of the corpus and scores the answers against the labels. `conversations` gives the recorded
 * runs by id (`<task_id>-<trial>`); `domains` the domain descriptions the corpus does not give inline.
 *
 * @example
 * ```ts
 * const evaluation = evaluateDialogue(corpus, runs, { airline: domain });
 * ```
 */
export function evaluateDialogue(
  corpus: DialogueCorpus,
  conversations: ReadonlyMap<string, Conversation>,
  domains: Readonly<Record<string, DomainDescription>>,
): DialogueEvaluation {
  const read = corpus.items.map((item, index) => {
    const name = 'trajectory' in item.source ? `${item.source.trajectory}@${item.source.through}` : `#${index}`;
    let conversation: Conversation;
    if ('trajectory' in item.source) {
      const run = conversations.get(item.source.trajectory);
      if (run === undefined) throw new Error(`corpus item ${index}: no recorded run \`${item.source.trajectory}\``);
      conversation = run.before(item.source.through + 1);
    } else {
      conversation = fromOpenAIChat(item.source.conversation, `corpus item ${index}`);
    }
    const domain = (corpus.domains[item.domain] as DomainDescription | undefined) ?? domains[item.domain];
    const fact = ask(conversation, item, domain);
    return {
      question: item.question,
      item: `${item.domain} ${item.question} ${name}`,
      label: item.label,
      read: fact.answer,
      note: item.note,
    };
  });
  return {
    questions: Object.fromEntries(
      questions
        .filter((question) => read.some((item) => item.question === question))
        .map((question) => [question, scores(read.filter((item) => item.question === question))]),
    ),
    pooled: scores(read),
    misread: read
      .filter((item) => item.label !== item.read)
      .map(({ item, label, read: value, note }) => ({ item, label, read: value, note })),
  };
}

const figure = (value: number) => value.toFixed(2);

/** The evaluation as a readable report. */
export function formatDialogueEvaluation(evaluation: DialogueEvaluation): string {
  const lines = [
    `  ${'question'.padEnd(14)}${'items'.padStart(6)}${'yes P'.padStart(8)}${'yes R'.padStart(8)}${'no P'.padStart(8)}${'no R'.padStart(8)}${'unsure'.padStart(8)}${'fail-open'.padStart(11)}`,
  ];
  const row = (name: string, item: QuestionScores) =>
    `  ${name.padEnd(14)}${String(item.items).padStart(6)}${figure(item.yes.precision).padStart(8)}${figure(item.yes.recall).padStart(8)}${figure(item.no.precision).padStart(8)}${figure(item.no.recall).padStart(8)}${figure(item.unsureRate).padStart(8)}${String(item.failOpen.length).padStart(11)}`;
  for (const [question, item] of Object.entries(evaluation.questions)) lines.push(row(question, item));
  lines.push(row('pooled', evaluation.pooled), '', 'read otherwise than labelled (label -> read):');
  for (const item of evaluation.misread) lines.push(`  ${item.label} -> ${item.read}  ${item.item}: ${item.note}`);
  return lines.join('\n');
}
