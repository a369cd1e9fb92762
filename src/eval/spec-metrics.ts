import type { ToolPolicySpec } from '../pack/policy-spec.ts';

/** Precision, recall and F1 of reference detection. */
export interface ReferenceScores {
  precision: number;
  recall: number;
  f1: number;
}

/** The mapper metrics of one tool, or of all tools pooled. */
export interface SpecScores {
  reference: ReferenceScores & { predicted: number; gold: number; matched: number };
  grouping: { fuzzy_rand_index: number; common: number };
}

/** The mapper metrics of a predicted spec against a gold one. */
export interface SpecEvaluation {
  reference: ReferenceScores;
  grouping: { fuzzy_rand_index: number };
  per_tool: Record<string, SpecScores>;
}

/** Splits reference text into normalised sentences: whitespace collapsed, case and closing punctuation ignored. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z"(])/)
    .map((sentence) =>
      sentence
        .trim()
        .toLowerCase()
        .replace(/^[-*•\s]+/, '')
        .replace(/[.!?;:,\s]+$/, ''),
    )
    .filter((sentence) => sentence !== '');
}

/** For each reference sentence of a spec's live policies, the policies (groups) that cite it. */
function groupsOf(spec: ToolPolicySpec): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const policy of spec.policies) {
    if (policy.archived !== undefined) continue;
    for (const reference of policy.references) {
      for (const sentence of sentencesOf(reference)) {
        const cited = groups.get(sentence) ?? new Set<string>();
        cited.add(policy.id);
        groups.set(sentence, cited);
      }
    }
  }
  return groups;
}

const ratio = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);

function scores(matched: number, predicted: number, gold: number): ReferenceScores {
  const precision = ratio(matched, predicted);
  const recall = ratio(matched, gold);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/**
 * How alike two elements are in a fuzzy clustering where an element may belong to several groups: one minus the
 * total variation distance between their memberships, each spread evenly over its groups (Hüllermeier et al.'s
 * fuzzy equivalence; 1 for the same groups, 0 for disjoint ones).
 */
function together(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let distance = 0;
  for (const group of new Set([...left, ...right])) {
    distance += Math.abs((left.has(group) ? 1 / left.size : 0) - (right.has(group) ? 1 / right.size : 0));
  }
  return 1 - distance / 2;
}

/**
 * The fuzzy Rand index of two groupings over the elements both contain, as the sum of disagreements and the number of
 * pairs (so tools can be pooled). With one group per element it is the Rand index.
 */
export function fuzzyRandParts(
  predicted: ReadonlyMap<string, ReadonlySet<string>>,
  gold: ReadonlyMap<string, ReadonlySet<string>>,
): { disagreement: number; pairs: number; common: number } {
  const common = [...predicted.keys()].filter((element) => gold.has(element));
  let disagreement = 0;
  let pairs = 0;
  for (let first = 0; first < common.length; first++) {
    for (let second = first + 1; second < common.length; second++) {
      const a = common[first] as string;
      const b = common[second] as string;
      const inPredicted = together(predicted.get(a) as ReadonlySet<string>, predicted.get(b) as ReadonlySet<string>);
      const inGold = together(gold.get(a) as ReadonlySet<string>, gold.get(b) as ReadonlySet<string>);
      disagreement += Math.abs(inPredicted - inGold);
      pairs++;
    }
  }
  return { disagreement, pairs, common: common.length };
}

/**
 * Scores a predicted tool-policy spec against a gold one with the ToolGuard paper's mapper metrics: reference
 * precision, recall and F1 over reference sentences, and the fuzzy Rand index of how the sentences common to both are
 * grouped into policies. Per tool, and pooled over tools (sentence counts and sentence pairs summed). A tool the
 * prediction lacks counts as predicting nothing for it. Archived policies (flagged `archived`: they cannot be decided
 * before the call, and no guard is generated for them) are not scored, on either side.
 *
 * @example
 * ```ts
 * const scores = evaluateSpec(predicted, gold); // scores.reference.f1, scores.grouping.fuzzy_rand_index
 * ```
 */
export function evaluateSpec(
  predicted: ReadonlyMap<string, ToolPolicySpec>,
  gold: ReadonlyMap<string, ToolPolicySpec>,
): SpecEvaluation {
  const perTool: Record<string, SpecScores> = {};
  let matchedAll = 0;
  let predictedAll = 0;
  let goldAll = 0;
  let disagreementAll = 0;
  let pairsAll = 0;
  for (const tool of [...gold.keys()].sort()) {
    const goldGroups = groupsOf(gold.get(tool) as ToolPolicySpec);
    const predictedSpec = predicted.get(tool);
    const predictedGroups = predictedSpec === undefined ? new Map<string, Set<string>>() : groupsOf(predictedSpec);
    const matched = [...predictedGroups.keys()].filter((sentence) => goldGroups.has(sentence)).length;
    const rand = fuzzyRandParts(predictedGroups, goldGroups);
    perTool[tool] = {
      reference: {
        ...scores(matched, predictedGroups.size, goldGroups.size),
        predicted: predictedGroups.size,
        gold: goldGroups.size,
        matched,
      },
      grouping: { fuzzy_rand_index: rand.pairs === 0 ? 1 : 1 - rand.disagreement / rand.pairs, common: rand.common },
    };
    matchedAll += matched;
    predictedAll += predictedGroups.size;
    goldAll += goldGroups.size;
    disagreementAll += rand.disagreement;
    pairsAll += rand.pairs;
  }
  return {
    reference: scores(matchedAll, predictedAll, goldAll),
    grouping: { fuzzy_rand_index: pairsAll === 0 ? 1 : 1 - disagreementAll / pairsAll },
    per_tool: perTool,
  };
}
