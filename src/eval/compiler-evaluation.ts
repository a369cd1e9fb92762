import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generatePack, type PolicyReport } from '../compiler/generate-pack.ts';
import { KeepingRuntime } from '../compiler/keeping-runtime.ts';
import { mapPolicies } from '../compiler/map-policies.ts';
import { policyFile } from '../compiler/pack-layout.ts';
import { GuardTypeChecker } from '../compiler/type-checker.ts';
import type { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { loadPack } from '../pack/load-pack.ts';
import type { ToolPolicySpec } from '../pack/policy-spec.ts';
import { runCases } from '../pack/run-cases.ts';
import type { TestCase } from '../pack/test-case.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import type { EnvironmentFactory } from '../replay/environment.ts';
import { type ReplayLine, replay } from '../replay/replay.ts';
import type { Trajectory } from '../replay/trajectories.ts';
import { IsolateSandbox } from '../sandbox/isolate-sandbox.ts';
import { evaluateSpec, type SpecEvaluation } from './spec-metrics.ts';

/** What a compiler evaluation needs: the inputs of both steps, the references to score against, and the runs. */
export interface CompilerEvaluationOptions {
  model: LanguageModel;
  budget: Budget;
  /** Where the mapping (`map/`) and the generated pack (`pack/`) are written; rerunning resumes from them. */
  out: string;
  document: string;
  /** Every tool: the guarded ones mapped, the read-only lookups offered to guards. */
  tools: readonly ToolSpec[];
  /** The guarded tools to map (default: every tool that is not read-only). */
  mapTools?: readonly string[];
  /** The mapped tools to generate guards for (default: every mapped tool). */
  generateTools?: readonly string[];
  /** The gold spec; only the tools mapped are scored. */
  gold: ReadonlyMap<string, ToolPolicySpec>;
  /** The reviewed pack whose verdicts the generated pack is compared with. */
  reviewedPack: string;
  runs: readonly Trajectory[];
  environment: EnvironmentFactory;
  domain: string;
  clock?: string;
  timeZone?: string;
  rounds?: number;
  votes?: number;
  maxRepairs?: number;
  timeoutMs?: number;
  /** Tools mapped and policies generated at the same time. Default 1. */
  concurrency?: number;
  /** Whether the domain step completes the drafted domain description (see `GenerateOptions.describeDomain`). */
  describeDomain?: boolean;
  onProgress?: (line: string) => void;
}

/** How one generated policy's refusals compare with the reviewed pack's verdicts on the same recorded calls. */
export interface PolicyAgreement {
  tool: string;
  policy: string;
  state: PolicyReport['state'];
  /** Calls of its tool in the runs. */
  calls: number;
  /** Calls the policy refused (denied or asked). */
  refused: number;
  /** Of those, calls where the policy asked a person (its answer unsure) rather than denied. */
  asked: number;
  /** Of those, calls the reviewed pack refuses too. */
  refusedByReviewed: number;
}

/** How the generated pack's verdicts compare with the reviewed pack's on one tool's recorded calls. */
export interface ToolAgreement {
  calls: number;
  /** Calls both packs allow or both refuse. */
  agree: number;
  refusedByGenerated: number;
  /** Of the generated pack's refusals, those that ask a person. */
  askedByGenerated: number;
  refusedByReviewed: number;
}

/** Everything a compiler evaluation measured. */
export interface CompilerEvaluation {
  model: string;
  mapping: SpecEvaluation;
  policies: PolicyReport[];
  tests: { cases: number; passed: number };
  /** Lines of generated guard code (the policies' modules, not the shared helpers or the generated indexes). */
  codeLines: number;
  replay: { runs: number; tools: Record<string, ToolAgreement>; policies: PolicyAgreement[] };
  /** Model calls, retries and tokens per step (tokens may be estimates; see `estimated`). */
  spending: Record<string, { calls: number; retries: number; tokens: number; estimated: boolean }>;
}

const figure = (value: number) => value.toFixed(3);
const refused = (line: ReplayLine | undefined) => line !== undefined && line.verdict !== 'allow';
const lineKey = (line: ReplayLine) => `${line.trajectory}#${line.message_index}#${line.call_index}`;

/** The replay's lines, each with the policies that asked (rather than denied) on it. */
async function replayLines(pack: string, runs: readonly Trajectory[], fresh: EnvironmentFactory) {
  const runtime = new KeepingRuntime([await loadPack(pack)]);
  try {
    const { lines } = await replay(runtime, runs, fresh);
    return lines.map((line, index) => ({
      ...line,
      asked: new Set(
        (runtime.verdicts[index]?.violations ?? [])
          .filter((violation) => violation.effect === 'ask')
          .map((violation) => violation.policy),
      ),
    }));
  } finally {
    await runtime.close();
  }
}

/**
 * Measures the policy compiler end to end on a domain with references: maps the policy document onto the tools and
 * scores the mapping against a gold spec (reference P/R/F1, fuzzy Rand index, per tool and pooled); generates a
 * guard pack from that mapping with no reviewed input; runs the pack's own tests; and replays recorded runs through
 * the generated and the reviewed pack, comparing their verdicts per tool and each generated policy's refusals.
 *
 * @example
 * ```ts
 * const evaluation = await evaluateCompiler({ model, budget, out, document, tools, gold, reviewedPack, runs, environment, domain: 'tau-airline' });
 * ```
 */
export async function evaluateCompiler(options: CompilerEvaluationOptions): Promise<CompilerEvaluation> {
  const progress = options.onProgress ?? (() => {});
  const mapped = new Set(options.mapTools ?? options.tools.filter((tool) => !tool.readOnly).map((tool) => tool.name));
  const tools = options.tools.filter((tool) => tool.readOnly || mapped.has(tool.name));
  const map = await mapPolicies({
    document: options.document,
    tools,
    model: options.model,
    budget: options.budget,
    workDir: join(options.out, 'map'),
    rounds: options.rounds ?? 2,
    votes: options.votes ?? 1,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    onProgress: (tool, step) => progress(`[map] ${tool}: ${step}`),
  });
  const mapping = evaluateSpec(map.specs, new Map([...options.gold].filter(([tool]) => mapped.has(tool))));
  progress(
    `[map] against the gold spec: P ${figure(mapping.reference.precision)}, R ${figure(mapping.reference.recall)}, F1 ${figure(mapping.reference.f1)}, FRI ${figure(mapping.grouping.fuzzy_rand_index)}`,
  );

  const generated = new Set(options.generateTools ?? [...map.specs.keys()]);
  const packDir = join(options.out, 'pack');
  const policies = await generatePack({
    out: packDir,
    domain: options.domain,
    description: 'Guards generated by agentguard from the policy document, with no reviewed input.',
    policyDocument: options.document,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    tools,
    specs: new Map([...map.specs].filter(([tool]) => generated.has(tool))),
    model: options.model,
    budget: options.budget,
    sandbox: new IsolateSandbox(),
    typeChecker: new GuardTypeChecker(),
    maxRepairs: options.maxRepairs ?? 3,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.describeDomain === undefined ? {} : { describeDomain: options.describeDomain }),
    onProgress: (event) => progress(`[generate] ${event.policy}: ${event.step}`),
  });

  progress('[tests] running the generated pack’s own tests');
  const pack = await loadPack(packDir);
  const cases: TestCase[] = [];
  for (const name of (await readdir(join(packDir, 'tests'))).filter((file) => file.endsWith('.cases.json')).sort()) {
    cases.push(...(JSON.parse(await readFile(join(packDir, 'tests', name), 'utf8')) as TestCase[]));
  }
  const results = await runCases(pack, cases);
  let codeLines = 0;
  for (const report of policies.filter((item) => item.state === 'enforced')) {
    codeLines += (await readFile(join(packDir, policyFile(report.tool, report.policy)), 'utf8'))
      .trimEnd()
      .split('\n').length;
  }

  progress(`[replay] ${options.runs.length} recorded runs through the generated and the reviewed pack`);
  const mine = await replayLines(packDir, options.runs, options.environment);
  const theirs = new Map(
    (await replayLines(options.reviewedPack, options.runs, options.environment)).map((line) => [lineKey(line), line]),
  );
  const toolFigures: Record<string, ToolAgreement> = {};
  for (const line of mine.filter((item) => generated.has(item.tool))) {
    const figures = toolFigures[line.tool] ?? {
      calls: 0,
      agree: 0,
      refusedByGenerated: 0,
      askedByGenerated: 0,
      refusedByReviewed: 0,
    };
    toolFigures[line.tool] = figures;
    const reviewed = theirs.get(lineKey(line));
    figures.calls++;
    if (refused(line) === refused(reviewed)) figures.agree++;
    if (refused(line)) figures.refusedByGenerated++;
    if (line.verdict === 'ask') figures.askedByGenerated++;
    if (refused(reviewed)) figures.refusedByReviewed++;
  }
  const agreements = policies
    .filter((report) => report.state !== 'archived')
    .map((report): PolicyAgreement => {
      const calls = mine.filter((line) => line.tool === report.tool);
      const hits = calls.filter((line) => line.violations.some((violation) => violation.policy === report.policy));
      return {
        tool: report.tool,
        policy: report.policy,
        state: report.state,
        calls: calls.length,
        refused: hits.length,
        asked: hits.filter((line) => line.asked.has(report.policy)).length,
        refusedByReviewed: hits.filter((line) => refused(theirs.get(lineKey(line)))).length,
      };
    });
  return {
    model: options.model.id,
    mapping,
    policies,
    tests: { cases: results.length, passed: results.filter((result) => result.outcome === 'pass').length },
    codeLines,
    replay: { runs: options.runs.length, tools: toolFigures, policies: agreements },
    spending: Object.fromEntries(
      [...options.budget.steps].map(([step, account]) => [
        step,
        {
          calls: account.calls,
          retries: account.retries,
          tokens: account.inputTokens + account.outputTokens,
          estimated: account.estimated,
        },
      ]),
    ),
  };
}

/** The evaluation as a readable report. */
export function formatCompilerEvaluation(evaluation: CompilerEvaluation): string {
  const lines = [`model: ${evaluation.model}`, '', 'mapping against the gold spec:'];
  lines.push(`  ${'tool'.padEnd(32)}${'P'.padStart(7)}${'R'.padStart(7)}${'F1'.padStart(7)}${'FRI'.padStart(7)}`);
  const row = (name: string, reference: { precision: number; recall: number; f1: number }, fri: number) =>
    `  ${name.padEnd(32)}${figure(reference.precision).padStart(7)}${figure(reference.recall).padStart(7)}${figure(reference.f1).padStart(7)}${figure(fri).padStart(7)}`;
  for (const [tool, scores] of Object.entries(evaluation.mapping.per_tool)) {
    lines.push(row(tool, scores.reference, scores.grouping.fuzzy_rand_index));
  }
  lines.push(row('pooled', evaluation.mapping.reference, evaluation.mapping.grouping.fuzzy_rand_index));
  const count = (state: PolicyReport['state']) => evaluation.policies.filter((report) => report.state === state).length;
  lines.push(
    '',
    `generated: ${count('enforced')} policies enforced, ${count('not_enforced')} not enforced, ${count('archived')} archived; ${evaluation.policies.reduce((sum, report) => sum + report.repairs, 0)} repairs`,
    `the pack's own tests: ${evaluation.tests.passed} of ${evaluation.tests.cases} pass`,
    `generated guard code: ${evaluation.codeLines} lines in the policies' modules (shared helpers aside)`,
    '',
    `replay of ${evaluation.replay.runs} recorded runs, verdicts compared with the reviewed pack:`,
  );
  for (const [tool, figures] of Object.entries(evaluation.replay.tools)) {
    lines.push(
      `  ${tool.padEnd(32)} agree on ${figures.agree} of ${figures.calls} calls, ${figures.calls === 0 ? 100 : Math.round((100 * figures.agree) / figures.calls)}%, ask counted as not allowed (generated refuses ${figures.refusedByGenerated}, ${figures.askedByGenerated} of them asking; reviewed ${figures.refusedByReviewed})`,
    );
  }
  lines.push(
    '',
    "per generated policy: calls of its tool it refuses (asked of them), how many of those the reviewed pack refuses too, and the share of its tool's calls it refuses where the reviewed pack allows:",
  );
  for (const item of evaluation.replay.policies) {
    const share = item.calls === 0 ? 0 : item.refused / item.calls;
    lines.push(
      `  ${share > 0.5 ? 'REVIEW' : '      '} ${String(item.refused).padStart(4)}/${String(item.calls).padEnd(4)} (asked ${String(item.asked).padStart(3)}) reviewed agrees on ${String(item.refusedByReviewed).padStart(4)}, refuses where reviewed allows ${(item.calls === 0 ? 0 : (100 * (item.refused - item.refusedByReviewed)) / item.calls).toFixed(0).padStart(3)}%  ${item.policy}${item.state === 'enforced' ? '' : ` (${item.state})`}`,
    );
  }
  return lines.join('\n');
}
