import { closest, distance } from 'fastest-levenshtein';
import { mapConcurrently } from '../concurrent.ts';
import { AgentGuardError } from '../errors.ts';
import type { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import type { PolicySpec, ToolPolicySpec } from '../pack/policy-spec.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { askStep, type StepRunner } from './ask-step.ts';
import {
  addPoliciesPrompt,
  createExamplesPrompt,
  createPoliciesPrompt,
  type DraftPolicy,
  type PolicyExamples,
  reviewEnforceabilityPrompt,
  reviewRelevancePrompt,
  splitMergePrompt,
} from './mapper-prompts.ts';

/** What the mapper needs. */
export interface MapOptions {
  document: string;
  tools: readonly ToolSpec[];
  model: LanguageModel;
  budget: Budget;
  /** Where intermediate results are kept, so a failed build resumes where it stopped. */
  workDir: string;
  /**
   * Read-only tools whose calls policies cover too, such as tools that return content a policy keeps from the agent.
   * Every other read-only tool is a lookup only. Default none.
   */
  guardReadOnly?: readonly string[];
  /** Reflection rounds that look for missed policies. Default 2. */
  rounds?: number;
  /** Votes on each policy's relevance; the majority keeps it. Default 3. */
  votes?: number;
  /** Fewest examples of each kind per policy before more are asked for. Default 3. */
  minExamples?: number;
  /** Time limit of one model call in milliseconds. Default 120 000. */
  timeoutMs?: number;
  /** Longest document accepted, in characters. Default 200 000. */
  maxDocumentChars?: number;
  /** Tools mapped at the same time, each its own sequence of model calls. Default 1. */
  concurrency?: number;
  onProgress?: (tool: string, step: string) => void;
}

/**
 * The mapper's output: a spec per guarded tool and the archived policies with the reason. An archived policy stays in
 * its tool's spec, flagged with `archived` (the reason), so that it is neither scored nor generated.
 */
export interface MapResult {
  specs: Map<string, ToolPolicySpec>;
  archived: Map<string, string>;
}

/** Rejects a policy document that is empty, not text, or too long for the model. */
export function checkDocument(document: string, source: string, maxChars = 200_000): void {
  if (document.trim() === '') throw new AgentGuardError('invalid_input', `the policy document \`${source}\` is empty`);
  if (document.includes('\u0000') || (document.match(/\uFFFD/g)?.length ?? 0) > document.length / 100) {
    throw new AgentGuardError('invalid_input', `the policy document \`${source}\` is not text`);
  }
  if (document.length > maxChars) {
    throw new AgentGuardError(
      'invalid_input',
      `the policy document \`${source}\` has ${document.length} characters, more than the ${maxChars} a model call takes: split it into documents per topic, or raise the limit for a model with a larger context`,
    );
  }
}

/**
 * The blocks of a document as the reference check reads it: paragraphs, headings and list items, each as written
 * (leading markers and indentation kept).
 */
export function documentBlocks(document: string): string[] {
  return document.split(/\n\s*\n|\n(?=\s*[-*#])/);
}

/** The sentences of one block of a document, whitespace collapsed and its heading or list marker dropped. */
export function blockSentences(block: string): string[] {
  return block
    .replace(/\s+/g, ' ')
    .replace(/^[-*#\s]+/, '')
    .split(/(?<=[.!?])\s+(?=[A-Z"(])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** The sentences of a document, whitespace collapsed. */
function documentSentences(document: string): string[] {
  return documentBlocks(document).flatMap(blockSentences);
}

/**
 * Checks that every reference occurs verbatim in the document (whitespace aside); a reference that does not is
 * replaced by the closest sentence of the document when they are close (edit distance under a fifth of its length),
 * and dropped otherwise.
 */
export function correctReferences(references: readonly string[], document: string): string[] {
  const flat = document.replace(/\s+/g, ' ');
  const sentences = documentSentences(document);
  const corrected: string[] = [];
  for (const reference of references) {
    const normalized = reference.replace(/\s+/g, ' ').trim();
    if (flat.includes(normalized)) corrected.push(normalized);
    else if (sentences.length > 0) {
      const nearest = closest(normalized, sentences);
      if (distance(normalized, nearest) <= nearest.length / 5) corrected.push(nearest);
    }
  }
  return [...new Set(corrected)];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * Writes the examples of a tool's live policies in one call, and asks once more, in one call, for the policies that
 * got fewer than the minimum of a kind.
 */
async function writeExamples(
  runner: StepRunner,
  options: MapOptions,
  tool: ToolSpec,
  found: readonly DraftPolicy[],
): Promise<Map<number, PolicyExamples>> {
  const result = new Map<number, PolicyExamples>();
  if (found.length === 0) return result;
  options.onProgress?.(tool.name, 'examples');
  const minimum = options.minExamples ?? 3;
  const input = { document: options.document, tool, tools: options.tools, found, minimum };
  const indexProblems = (answer: { examples: { index: number }[] }) =>
    answer.examples.filter((item) => item.index >= found.length).map((item) => `index ${item.index} is not a policy`);
  const merge = (answer: { examples: ({ index: number } & PolicyExamples)[] }) => {
    for (const { index, compliance_examples, violation_examples } of answer.examples) {
      const before = result.get(index) ?? { compliance_examples: [], violation_examples: [] };
      result.set(index, {
        compliance_examples: [...before.compliance_examples, ...compliance_examples],
        violation_examples: [...before.violation_examples, ...violation_examples],
      });
    }
  };
  merge(await askStep(runner, createExamplesPrompt, input, indexProblems));
  const have = new Map<number, PolicyExamples>();
  found.forEach((_, index) => {
    const lists = result.get(index) ?? { compliance_examples: [], violation_examples: [] };
    if (lists.compliance_examples.length < minimum || lists.violation_examples.length < minimum) have.set(index, lists);
  });
  if (have.size > 0) {
    options.onProgress?.(tool.name, 'more examples');
    merge(await askStep(runner, createExamplesPrompt, { ...input, have }, indexProblems));
  }
  return result;
}

/**
 * Step 1 of the compiler, the tool-policy mapper of the ToolGuard paper: per tool, create policies with verbatim
 * references, add missed ones by reflection, split them into atomic policies and merge duplicates, keep those most
 * votes find relevant, correct references against the document, archive those that cannot be decided before the call
 * (with the reason, flagged `archived` in the spec), and write compliance and violation examples per tool in one
 * call, asking once more for the policies with fewer than `minExamples` of a kind. Every step's
 * result is kept in `workDir` and reused when its input has not changed.
 *
 * @example
 * ```ts
 * const { specs, archived } = await mapPolicies({ document, tools, model, budget, workDir: 'out/.build/map' });
 * ```
 */
export async function mapPolicies(options: MapOptions): Promise<MapResult> {
  checkDocument(options.document, 'policy document', options.maxDocumentChars);
  const specs = new Map<string, ToolPolicySpec>();
  const archived = new Map<string, string>();

  const runner: StepRunner = {
    model: options.model,
    budget: options.budget,
    workDir: options.workDir,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const unknown = (options.guardReadOnly ?? []).filter(
    (name) => !options.tools.some((tool) => tool.name === name && tool.readOnly),
  );
  if (unknown.length > 0) {
    throw new AgentGuardError('invalid_input', `not read-only tools of the tool specs: ${unknown.join(', ')}`);
  }
  const guarded = (tool: ToolSpec) => !tool.readOnly || (options.guardReadOnly ?? []).includes(tool.name);
  const mapped = await mapConcurrently(options.tools.filter(guarded), options.concurrency ?? 1, (tool) =>
    mapTool(runner, options, tool),
  );
  for (const result of mapped) {
    specs.set(result.spec.tool, result.spec);
    for (const [id, reason] of result.archived) archived.set(id, reason);
  }
  return { specs, archived };
}

/** The problems of a vote or review answer: indexes that are not a policy. */
const indexCheck = (count: number) => (answer: { votes?: { index: number }[]; reviews?: { index: number }[] }) =>
  (answer.votes ?? answer.reviews ?? [])
    .filter((item) => item.index >= count)
    .map((item) => `index ${item.index} is not a policy`);

/** Maps the document onto one tool: its spec and the policies archived, with the reason. */
async function mapTool(
  runner: StepRunner,
  options: MapOptions,
  tool: ToolSpec,
): Promise<{ spec: ToolPolicySpec; archived: Map<string, string> }> {
  const archived = new Map<string, string>();
  const progress = (name: string) => options.onProgress?.(tool.name, name);
  progress('create policies');
  let found: DraftPolicy[] = (
    await askStep(runner, createPoliciesPrompt, { document: options.document, tool, tools: options.tools })
  ).policies;
  for (let round = 1; round <= (options.rounds ?? 2); round++) {
    progress(`add policies, round ${round}`);
    const added = (
      await askStep(runner, addPoliciesPrompt, { document: options.document, tool, tools: options.tools, found })
    ).policies;
    if (added.length === 0) break;
    found = [...found, ...added];
  }
  if (found.length === 0) {
    // No policy speaks of the tool: nothing to split, vote on or review.
    return { spec: { tool: tool.name, policies: [] }, archived };
  }
  progress('split and merge');
  found = (await askStep(runner, splitMergePrompt, { document: options.document, tool, found })).policies;

  progress('review relevance');
  const tally = found.map(() => 0);
  const voters = found.length === 0 ? 0 : (options.votes ?? 3);
  for (let vote = 1; vote <= voters; vote++) {
    const answer = await askStep(
      runner,
      reviewRelevancePrompt,
      { document: options.document, tool, found, vote },
      indexCheck(found.length),
    );
    for (const item of answer.votes) if (item.relevant) tally[item.index] = (tally[item.index] ?? 0) + 1;
  }
  found = found.filter((_, index) => (tally[index] ?? 0) * 2 > voters);

  progress('correct references');
  const policies: PolicySpec[] = [];
  const kept: { id: string; draft: DraftPolicy }[] = [];
  const order: string[] = [];
  const archive = (id: string, draft: DraftPolicy, reason: string) => {
    policies.push({ id, ...draft, compliance_examples: [], violation_examples: [], archived: reason });
    archived.set(id, reason);
  };
  for (const draft of found) {
    let id = `${tool.name}.${slug(draft.name)}`;
    for (let suffix = 2; kept.some((item) => item.id === id) || policies.some((item) => item.id === id); suffix++) {
      id = `${tool.name}.${slug(draft.name)}_${suffix}`;
    }
    order.push(id);
    const references = correctReferences(draft.references, options.document);
    if (references.length === 0) archive(id, draft, 'none of its references occurs in the policy document');
    else kept.push({ id, draft: { ...draft, references } });
  }

  progress('review enforceability');
  const drafts = kept.map((item) => item.draft);
  const reviews =
    drafts.length === 0
      ? []
      : (
          await askStep(
            runner,
            reviewEnforceabilityPrompt,
            { document: options.document, tool, tools: options.tools, found: drafts },
            indexCheck(drafts.length),
          )
        ).reviews;
  const live: { id: string; draft: DraftPolicy }[] = [];
  for (const [index, item] of kept.entries()) {
    const review = reviews.find((candidate) => candidate.index === index);
    if (review?.enforceable === false) archive(item.id, item.draft, review.reason);
    else live.push(item);
  }
  const examples = await writeExamples(
    runner,
    options,
    tool,
    live.map((item) => item.draft),
  );
  for (const [index, { id, draft }] of live.entries()) {
    policies.push({ id, ...draft, ...(examples.get(index) ?? { compliance_examples: [], violation_examples: [] }) });
  }
  policies.sort((left, right) => order.indexOf(left.id) - order.indexOf(right.id));
  return { spec: { tool: tool.name, policies }, archived };
}
