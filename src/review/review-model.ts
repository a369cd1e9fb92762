import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GuardPack } from '../pack/load-pack.ts';
import type { PolicyEntry, ReviewRecord } from '../pack/manifest.ts';
import type { PolicySpec } from '../pack/policy-spec.ts';
import { packContentHashes, packFingerprint, policyStatesKey, type ReviewChange } from '../pack/review-hashes.ts';
import { runCases } from '../pack/run-cases.ts';
import { readTestCases, type TestCase } from '../pack/test-case.ts';
import type { DecisionRecord } from './decision-source.ts';
import { type PolicyCode, policyCode, policyFiles } from './policy-code.ts';
import { type PolicyDecisions, policyDecisions } from './policy-decisions.ts';
import { type DocumentBlock, type MarkedDocument, markDocument } from './policy-document.ts';
import { generalPolicyState, type PolicyState, policyState } from './policy-state.ts';

/** A policy in the page's lists: tool policies (enforced, not enforced, archived) and general ones. */
export interface PolicySummary {
  id: string;
  name: string;
  /** The tool whose calls it decides; `null` for a general policy. */
  tool: string | null;
  state: PolicyState;
  description: string;
  references: readonly string[];
  /**
   * Whether the pack's approval covers the policy: the pack loads as reviewed, or it records an approval and none of
   * the files the policy depends on (`policyFiles`) nor the policies' states changed since.
   */
  approved: boolean;
  /** How many decisions of the decision source it did not allow; null without a decision source. */
  refusals: number | null;
}

/** What the document view shows. */
export interface PackOverview {
  domain: string;
  description: string;
  /** Whether the pack loads as reviewed now. */
  reviewed: boolean;
  review: ReviewRecord | null;
  /** The `packFingerprint` of the content shown; an approval sends it back so that it covers what was seen. */
  fingerprint: string;
  changedSinceReview: readonly ReviewChange[];
  coverage: {
    /** Sentences of the document, headings left out. */
    sentences: number;
    /** Sentences some policy's references cite. */
    cited: number;
    /** Sentences an enforced policy's references cite. */
    citedByEnforced: number;
  };
  document: DocumentBlock[];
  unmatched: MarkedDocument['unmatched'];
  policies: PolicySummary[];
  decisions: { source: string; calls: number; denied: number; asked: number } | null;
}

/** A test case of a policy, its full input, and its outcome in a live run. */
export interface ShownCase {
  kind: 'compliance' | 'violation';
  example: string;
  outcome: 'pass' | 'fail' | 'error';
  detail: string;
  /** What the check is given: the call's arguments, the conversation, the lookups' answers and the clock. */
  input: {
    arguments: TestCase['arguments'];
    conversation: TestCase['conversation'];
    lookups: TestCase['lookups'];
    /** The policy's clock in the case (ISO 8601); null when neither the case nor the pack sets one (the time now). */
    now: string | null;
    /** Where the clock comes from. */
    clock: 'case' | 'pack' | 'now';
  };
}

/** A reference of a policy and the sentences of the document it overlaps (their `index`). */
export interface ShownReference {
  text: string;
  sentences: number[];
}

/** What the policy view shows. */
export interface PolicyDetail extends PolicySummary {
  /** The policy's references, each with the sentences it cites. */
  citations: ShownReference[];
  complianceExamples: readonly string[];
  violationExamples: readonly string[];
  remedy: string | null;
  /** The guard code that decides it, with its path in the pack and the helper modules it imports. */
  code: PolicyCode | null;
  tests: ShownCase[];
  decisions: PolicyDecisions | null;
}

/** Recorded decisions and where they come from. */
export interface Decisions {
  source: string;
  records: readonly DecisionRecord[];
}

interface ToolPolicy {
  tool: string;
  spec: PolicySpec;
  entry: PolicyEntry;
}

function toolPolicies(pack: GuardPack): ToolPolicy[] {
  return [...pack.tools.values()].flatMap((tool) =>
    tool.policies.map((policy) => ({ tool: tool.spec.name, spec: policy.spec, entry: policy.entry })),
  );
}

/**
 * The ids of the policies the pack's approval covers (see `PolicySummary.approved`): all while it loads as reviewed;
 * none when there is no approval, or the policies' states or the policy document changed since; else those none of
 * whose files changed.
 */
async function approvedPolicies(pack: GuardPack, policies: readonly ToolPolicy[]): Promise<Set<string>> {
  const general = pack.manifest.general.map((policy) => policy.id);
  if (pack.manifest.reviewed) return new Set([...policies.map((policy) => policy.spec.id), ...general]);
  const changed = new Set((pack.changedSinceReview ?? []).map((change) => change.path));
  if (pack.manifest.review === undefined || changed.has(policyStatesKey) || changed.has(pack.manifest.policyDocument)) {
    return new Set();
  }
  const approved = new Set(general);
  for (const { tool, spec } of policies) {
    const files = await policyFiles(pack, tool, spec.id);
    if (!files.some((file) => changed.has(file))) approved.add(spec.id);
  }
  return approved;
}

async function summaries(pack: GuardPack, records: readonly DecisionRecord[] | undefined): Promise<PolicySummary[]> {
  const policies = toolPolicies(pack);
  const approved = await approvedPolicies(pack, policies);
  const refusals = new Map<string, number>();
  for (const record of records ?? []) {
    for (const { policy } of record.violations) refusals.set(policy, (refusals.get(policy) ?? 0) + 1);
  }
  const refused = (id: string) => (records === undefined ? null : (refusals.get(id) ?? 0));
  return [
    ...policies.map(({ tool, spec, entry }) => ({
      id: spec.id,
      name: spec.name,
      tool,
      state: policyState(
        entry,
        undefined,
        pack.manifest.validation?.policies[spec.id],
        pack.manifest.generated?.[spec.id]?.readsText,
        spec.unsure,
      ),
      description: spec.description,
      references: spec.references,
      approved: approved.has(spec.id),
      refusals: refused(spec.id),
    })),
    ...pack.manifest.general.map((general) => ({
      id: general.id,
      name: general.name,
      tool: null,
      state: generalPolicyState(general.reason),
      description: general.reason,
      references: general.references,
      approved: approved.has(general.id),
      refusals: null,
    })),
  ];
}

/**
 * The document view's data: the policy document marked with the policies citing each sentence, coverage, every
 * policy with its state, the approval, and the decisions' totals.
 *
 * @example
 * ```ts
 * const overview = await packOverview(await loadPack('packs/tau-airline', { importGuards: false }));
 * ```
 */
export async function packOverview(pack: GuardPack, decisions?: Decisions): Promise<PackOverview> {
  const policies = await summaries(pack, decisions?.records);
  const marked = markDocument(
    pack.policyDocument,
    policies.map((policy) => ({ policy: policy.id, references: policy.references })),
  );
  const enforced = new Set(policies.filter((policy) => policy.state.kind === 'enforced').map((policy) => policy.id));
  const sentences = marked.blocks.filter((block) => block.kind !== 'heading').flatMap((block) => block.sentences);
  return {
    domain: pack.manifest.domain,
    description: pack.manifest.description,
    reviewed: pack.manifest.reviewed,
    review: pack.manifest.review ?? null,
    fingerprint: packFingerprint(await packContentHashes(pack.dir, pack.manifest)),
    changedSinceReview: pack.changedSinceReview ?? [],
    coverage: {
      sentences: sentences.length,
      cited: sentences.filter((sentence) => sentence.citedBy.length > 0).length,
      citedByEnforced: sentences.filter((sentence) => sentence.citedBy.some((id) => enforced.has(id))).length,
    },
    document: marked.blocks,
    unmatched: marked.unmatched,
    policies,
    decisions:
      decisions === undefined
        ? null
        : {
            source: decisions.source,
            calls: decisions.records.length,
            denied: decisions.records.filter((record) => record.decision === 'deny').length,
            asked: decisions.records.filter((record) => record.decision === 'ask').length,
          },
  };
}

async function policyCases(pack: GuardPack, tool: string, policy: string): Promise<ShownCase[]> {
  const file = join(pack.dir, 'tests', `${tool}.cases.json`);
  if (!existsSync(file)) return [];
  const cases = (await readTestCases(file)).filter((testCase) => testCase.policy === policy);
  // Code under review runs where unreviewed code runs: in a worker that a hang cannot block, freshly imported.
  const results = await runCases({ ...pack, manifest: { ...pack.manifest, reviewed: false } }, cases);
  const packClock = pack.manifest.clock;
  return results.map(({ testCase, outcome, detail }) => ({
    kind: testCase.kind,
    example: testCase.example,
    outcome,
    detail,
    input: {
      arguments: testCase.arguments,
      conversation: testCase.conversation,
      lookups: testCase.lookups,
      now: testCase.now ?? packClock ?? null,
      clock: testCase.now !== undefined ? 'case' : packClock !== undefined ? 'pack' : 'now',
    },
  }));
}

function citations(pack: GuardPack, references: readonly string[]): ShownReference[] {
  return references.map((text) => ({
    text,
    sentences: markDocument(pack.policyDocument, [{ policy: 'shown', references: [text] }])
      .blocks.flatMap((block) => block.sentences)
      .filter((sentence) => sentence.citedBy.length > 0)
      .map((sentence) => sentence.index),
  }));
}

/**
 * The policy view's data: the spec, the guard code, the test cases run live, the state, and the decisions; undefined
 * when the pack has no policy with that id.
 *
 * @example
 * ```ts
 * const detail = await policyDetail(pack, 'cancel.eligibility');
 * ```
 */
export async function policyDetail(
  pack: GuardPack,
  id: string,
  decisions?: Decisions,
): Promise<PolicyDetail | undefined> {
  const summary = (await summaries(pack, decisions?.records)).find((policy) => policy.id === id);
  if (summary === undefined) return undefined;
  const shown = { ...summary, citations: citations(pack, summary.references) };
  const found = toolPolicies(pack).find((policy) => policy.spec.id === id);
  if (found === undefined) {
    return {
      ...shown,
      complianceExamples: [],
      violationExamples: [],
      remedy: null,
      code: null,
      tests: [],
      decisions: null,
    };
  }
  const { tool, spec, entry } = found;
  const tests = entry.state === 'archived' ? [] : await policyCases(pack, tool, id);
  return {
    ...shown,
    state: policyState(
      entry,
      entry.state === 'enforced' ? tests : undefined,
      pack.manifest.validation?.policies[id],
      pack.manifest.generated?.[id]?.readsText,
      spec.unsure,
    ),
    complianceExamples: spec.compliance_examples,
    violationExamples: spec.violation_examples,
    remedy: spec.remedy ?? null,
    code: await policyCode(pack, tool, id),
    tests,
    decisions: decisions === undefined ? null : policyDecisions(pack, id, tool, decisions.records, decisions.source),
  };
}
