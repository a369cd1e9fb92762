/**
 * The metamorphic relation and its tally. A variant is checked against a reference input that means the same (the
 * original, or for a retracted or conditional yes the same message ending in a plain no): the variant's decision
 * must be at least as strict as the reference's (deny > ask > allow), and a variant of an allowed reference must be
 * decided without a fault.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Decision, Verdict } from 'agentguard';

/** A decision and the faults met reaching it. */
export interface Decided {
  decision: Decision;
  faults: readonly string[];
}

const strictness: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * The decision of a verdict. With `policy` (a pack's test case, whose lookups answer that policy's questions only), the
 * faults of other policies are left out: they could not be decided from the case, which says nothing of them.
 */
export function decided(verdict: Verdict, policy?: string): Decided {
  const violations =
    policy === undefined
      ? verdict.violations
      : verdict.violations.filter((violation) => violation.policy === policy || violation.fault === undefined);
  let decision: Decision = 'allow';
  for (const violation of violations)
    if (strictness[violation.effect] > strictness[decision]) decision = violation.effect;
  return {
    decision,
    faults: violations.flatMap((violation) => (violation.fault === undefined ? [] : [violation.message])),
  };
}

/** Why a variant breaks the relation with its reference, or undefined when it keeps it. */
function breach(reference: Decided, variant: Decided): string | undefined {
  if (strictness[variant.decision] < strictness[reference.decision]) {
    return `moved from ${reference.decision} to ${variant.decision}`;
  }
  if (reference.decision === 'allow' && variant.faults.length > 0) {
    return `a variant of an allowed input could not be decided: ${variant.faults.join('; ')}`;
  }
  return undefined;
}

interface KindTally {
  generated: number;
  broken: number;
  examples: string[];
}

/** How many examples of a broken relation a failure shows per kind of variant. */
const shownExamples = 3;

/**
 * The variants one pack was given and how many kept the relation, by kind of variant.
 *
 * @example
 * ```ts
 * const survey = new Survey('tau-airline');
 * survey.record('unicode.format', original, variant, () => 'run 12-0, call 3');
 * console.log(survey.summary());
 * ```
 */
export class Survey {
  /** Real inputs the variants were made from. */
  inputs = 0;
  /** The pack surveyed. */
  readonly pack: string;
  private readonly kinds = new Map<string, KindTally>();

  constructor(pack: string) {
    this.pack = pack;
  }

  /** Counts one variant of `kind`; `describe` names the input and the variant when the relation breaks. */
  record(kind: string, reference: Decided, variant: Decided, describe: () => string): void {
    let tally = this.kinds.get(kind);
    if (tally === undefined) {
      tally = { generated: 0, broken: 0, examples: [] };
      this.kinds.set(kind, tally);
    }
    tally.generated++;
    const reason = breach(reference, variant);
    if (reason === undefined) return;
    tally.broken++;
    if (tally.examples.length < shownExamples) tally.examples.push(`${describe()}: ${reason}`);
  }

  /** Each kind of variant: how many were made, how many broke the relation, and examples of those. */
  tallies(): { kind: string; generated: number; broken: number; examples: readonly string[] }[] {
    return [...this.kinds]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([kind, tally]) => ({ kind, ...tally }));
  }

  /** One line for the pack and one per kind: variants made and survived. */
  summary(): string {
    const all = [...this.kinds.values()];
    const generated = all.reduce((sum, tally) => sum + tally.generated, 0);
    const broken = all.reduce((sum, tally) => sum + tally.broken, 0);
    const lines = [`${this.pack}: ${generated - broken} of ${generated} variants of ${this.inputs} inputs survived`];
    for (const tally of this.tallies()) {
      lines.push(`  ${tally.kind}: ${tally.generated - tally.broken} of ${tally.generated} survived`);
    }
    return lines.join('\n');
  }
}

/**
 * Prints a survey's summary and registers one test per kind of variant, failing with examples where a variant broke
 * the relation.
 */
export function reportSurvey(survey: Survey): void {
  console.log(survey.summary());
  for (const { kind, generated, broken, examples } of survey.tallies()) {
    it(`${kind}: ${generated - broken} of ${generated} variants decided at least as strictly`, () => {
      assert.equal(broken, 0, `${broken} variants broke the relation, e.g.\n${examples.join('\n')}`);
    });
  }
}

/** A text with every character outside printable ASCII escaped, so that invisible ones show in a report. */
export const visible = (text: string): string =>
  JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`);
