import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { policyFile } from '../compiler/pack-layout.ts';
import type { GuardPack } from '../pack/load-pack.ts';
import type { PolicyEntry, ReviewRecord } from '../pack/manifest.ts';
import type { PolicySpec } from '../pack/policy-spec.ts';
import { packContentHashes, packFingerprint, type ReviewChange } from '../pack/review-hashes.ts';
import { runCases } from '../pack/run-cases.ts';
import { readTestCases } from '../pack/test-case.ts';
import type { DecisionRecord } from './decision-source.ts';
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
  references: readonly string[];
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

/** A test case of a policy and its outcome in a live run. */
export interface ShownCase {
  kind: 'compliance' | 'violation';
  example: string;
  outcome: 'pass' | 'fail' | 'error';
  detail: string;
}

/** What the policy view shows. */
export interface PolicyDetail extends PolicySummary {
  description: string;
  complianceExamples: readonly string[];
  violationExamples: readonly string[];
  remedy: string | null;
  /** The guard code that decides it, with its path in the pack. */
  code: { path: string; source: string } | null;
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

function summaries(pack: GuardPack): PolicySummary[] {
  return [
    ...toolPolicies(pack).map(({ tool, spec, entry }) => ({
      id: spec.id,
      name: spec.name,
      tool,
      state: policyState(
        entry,
        undefined,
        pack.manifest.validation?.policies[spec.id],
        pack.manifest.generated?.[spec.id]?.readsText,
      ),
      references: spec.references,
    })),
    ...pack.manifest.general.map((general) => ({
      id: general.id,
      name: general.name,
      tool: null,
      state: generalPolicyState(general.reason),
      references: general.references,
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
  const policies = summaries(pack);
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

async function guardCode(pack: GuardPack, tool: string, policy: string): Promise<PolicyDetail['code']> {
  const own = policyFile(tool, policy);
  const path = existsSync(join(pack.dir, own)) ? own : pack.manifest.guards[tool]?.guard;
  if (path === undefined) return null;
  return { path, source: await readFile(join(pack.dir, path), 'utf8') };
}

async function policyCases(pack: GuardPack, tool: string, policy: string): Promise<ShownCase[]> {
  const file = join(pack.dir, 'tests', `${tool}.cases.json`);
  if (!existsSync(file)) return [];
  const cases = (await readTestCases(file)).filter((testCase) => testCase.policy === policy);
  // Code under review runs where unreviewed code runs: in a worker that a hang cannot block, freshly imported.
  const results = await runCases({ ...pack, manifest: { ...pack.manifest, reviewed: false } }, cases);
  return results.map(({ testCase, outcome, detail }) => ({
    kind: testCase.kind,
    example: testCase.example,
    outcome,
    detail,
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
  const general = pack.manifest.general.find((policy) => policy.id === id);
  if (general !== undefined) {
    return {
      id,
      name: general.name,
      tool: null,
      state: generalPolicyState(general.reason),
      references: general.references,
      description: general.reason,
      complianceExamples: [],
      violationExamples: [],
      remedy: null,
      code: null,
      tests: [],
      decisions: null,
    };
  }
  const found = toolPolicies(pack).find((policy) => policy.spec.id === id);
  if (found === undefined) return undefined;
  const { tool, spec, entry } = found;
  const tests = entry.state === 'archived' ? [] : await policyCases(pack, tool, id);
  return {
    id,
    name: spec.name,
    tool,
    state: policyState(
      entry,
      entry.state === 'enforced' ? tests : undefined,
      pack.manifest.validation?.policies[id],
      pack.manifest.generated?.[id]?.readsText,
    ),
    references: spec.references,
    description: spec.description,
    complianceExamples: spec.compliance_examples,
    violationExamples: spec.violation_examples,
    remedy: spec.remedy ?? null,
    code: await guardCode(pack, tool, id),
    tests,
    decisions: decisions === undefined ? null : policyDecisions(pack, id, tool, decisions.records, decisions.source),
  };
}
