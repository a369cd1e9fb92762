import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { mapConcurrently } from '../concurrent.ts';
import type { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { StepFailedError } from '../llm/structured.ts';
import type { Manifest, PolicyEntry } from '../pack/manifest.ts';
import { manifestSchema } from '../pack/manifest.ts';
import type { ToolPolicySpec } from '../pack/policy-spec.ts';
import type { TestCase } from '../pack/test-case.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { askStep, type StepRunner } from './ask-step.ts';
import { checkPolicyCode } from './check-policy.ts';
import { domainDescriptionSource, draftDomainDescription, kindFields } from './domain-description-draft.ts';
import { completeDomainDescription, domainDescriptionPrompt, domainProblems } from './domain-description-step.ts';
import { domainHelpers } from './domain-helpers.ts';
import { argsTypeName, domainTypes, policyTypes } from './domain-types.ts';
import { implementationPrompt, lookupsPrompt, repairPrompt, testCasesPrompt } from './generator-prompts.ts';
import { caseRunnerSource, contentHash, guardIndexSource, policyFile } from './pack-layout.ts';
import type { PromptTemplate } from './prompt-template.ts';
import { readsMessageText } from './text-matching.ts';
import type { GuardTypeChecker } from './type-checker.ts';

/** Everything the generator needs. */
export interface GenerateOptions {
  /** The pack folder to write (created if needed; regenerated in place if it holds a pack). */
  out: string;
  domain: string;
  description: string;
  policyDocument: string;
  clock?: string;
  /** The zone of timestamps without one in records and arguments (`-05:00`, `Z`); stated in the prompts. */
  timeZone?: string;
  tools: readonly ToolSpec[];
  specs: ReadonlyMap<string, ToolPolicySpec>;
  /** Policies not to generate, with the reason (the mapper's archive). */
  archived?: ReadonlyMap<string, string>;
  /**
   * Helper modules offered to the generated code, by pack path (`guards/lib/…`), copied into the pack. Default (none
   * given): agentguard's own, a typed `lookup`, `timeOf` and the confirmation reading (see `domainHelpers`).
   */
  helpers?: ReadonlyMap<string, string>;
  model: LanguageModel;
  budget: Budget;
  sandbox: Sandbox;
  typeChecker: GuardTypeChecker;
  /** Whether the generated code is reviewed (runs in-process). Default false: generated code is untrusted. */
  reviewed?: boolean;
  /** Policies of the document no tool guard decides, with the reason, for the manifest. */
  general?: Manifest['general'];
  /** Repairs after the first implementation. Default 3. */
  maxRepairs?: number;
  /** Time limit of one model call in milliseconds. Default 120 000. */
  timeoutMs?: number;
  /** Regenerate policies whose guard file was edited by hand. */
  force?: boolean;
  /** Policies generated at the same time, each its own sequence of model calls and tests. Default 1. */
  concurrency?: number;
  /**
   * Whether the domain step completes the drafted domain description (roles, orders, class phrases) from the policy
   * document, one model call, where neither `helpers` nor the pack holds a reviewed one. Default true; false keeps the
   * draft as drafted (how builds recorded before the step replay).
   */
  describeDomain?: boolean;
  onProgress?: (event: GenerateEvent) => void;
}

/** A step of the generator, for progress reports. */
export interface GenerateEvent {
  tool: string;
  policy: string;
  step:
    | 'domain'
    | 'unchanged'
    | 'kept'
    | 'lookups'
    | 'test_case'
    | 'implementation'
    | 'repair'
    | 'enforced'
    | 'not_enforced';
  detail?: string;
}

/** What became of one policy. */
export interface PolicyReport {
  tool: string;
  policy: string;
  state: 'enforced' | 'not_enforced' | 'archived';
  reason?: string;
  /** How the guard file came to be: generated now, unchanged since the last build, or kept as edited by hand. */
  origin: 'generated' | 'unchanged' | 'kept' | 'none';
  tests: { cases: number; passed: number };
  repairs: number;
  /**
   * Lines of an enforced check that read message text itself instead of the conversation's questions (see
   * `readsMessageText`): flagged for review, the check is enforced as written. Absent when there are none.
   */
  readsText?: string[];
}

/** What became of one policy: its manifest entry, report and test cases, and its code when it is enforced. */
interface PolicyOutcome {
  entry: PolicyEntry;
  report: PolicyReport;
  cases: readonly TestCase[];
  /** The manifest's record of its code, when the policy is enforced. */
  enforced?: PolicyRecord;
}

/** The manifest's record of a generated policy: hashes of the spec it came from and of the code written. */
interface PolicyRecord {
  specHash: string;
  codeHash: string;
  /** See `PolicyReport.readsText`. */
  readsText?: string[];
}

const writeText = async (file: string, content: string) => {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
};

const readRecords = async (out: string): Promise<Record<string, PolicyRecord>> => {
  try {
    const manifest = manifestSchema.parse(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')));
    return (manifest.generated ?? {}) as Record<string, PolicyRecord>;
  } catch {
    return {};
  }
};

const descriptionPath = 'guards/lib/domain-description.ts';

/** What is wrong with a test-case answer: an index missing, repeated or unknown, or arguments the schema refuses. */
function caseProblems(
  cases: readonly { index: number; arguments: Record<string, unknown> }[],
  count: number,
  argumentErrors: (args: unknown) => readonly { instancePath: string; message?: string }[],
): string[] {
  const problems: string[] = [];
  for (let index = 0; index < count; index++) {
    const found = cases.filter((item) => item.index === index).length;
    if (found !== 1) problems.push(`example ${index} has ${found} cases; give exactly one`);
  }
  cases.forEach((item, position) => {
    if (item.index >= count) problems.push(`cases[${position}]: index ${item.index} is not an example`);
    for (const error of argumentErrors(item.arguments)) {
      problems.push(`cases[${position}].arguments${error.instancePath}: ${error.message ?? 'invalid'}`);
    }
  });
  return problems;
}

/**
 * Step 2 of the compiler: turns tool-policy specs into a guard pack, test-first. Per policy: find the lookups it
 * needs, write a test case for each compliance and violation example in one call (arguments checked against the tool
 * schema),
 * write the check, type-check it and run its tests in the sandbox, and repair with the compiler's problems and the
 * failing tests fed back, up to `maxRepairs`. A policy that never goes green is recorded as not enforced with the
 * reason and its last failure; its code is not shipped. Unchanged policies are not regenerated; guard files edited by
 * hand are kept unless `force`.
 *
 * @example
 * ```ts
 * const report = await generatePack({ out: 'packs/shop', domain: 'shop', description: '', policyDocument, tools, specs, model, budget, sandbox, typeChecker });
 * ```
 */
export async function generatePack(options: GenerateOptions): Promise<PolicyReport[]> {
  const out = options.out;
  const maxRepairs = options.maxRepairs ?? 3;
  const previous = await readRecords(out);
  const records: Record<string, PolicyRecord> = {};
  const types = await domainTypes(options.tools);
  const lookupTools = options.tools.filter((tool) => tool.readOnly);
  const progress = (event: GenerateEvent) => options.onProgress?.(event);
  const runner: StepRunner = {
    model: options.model,
    budget: options.budget,
    workDir: join(out, '.build', 'steps'),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const ask = <Input, Output>(
    template: PromptTemplate<Input, import('zod').ZodType<Output>>,
    input: Input,
    check?: (value: Output) => string[],
  ) => askStep(runner, template, input, check);

  /** The pack's domain description: as a person reviewed it where the pack holds one, else the draft completed. */
  const describedDomain = async (): Promise<string> => {
    if (existsSync(join(out, descriptionPath))) return readFile(join(out, descriptionPath), 'utf8');
    const draft = draftDomainDescription(lookupTools);
    if (options.describeDomain === false || Object.keys(draft.kinds).length === 0)
      return domainDescriptionSource(draft);
    progress({ tool: '', policy: 'domain description', step: 'domain' });
    const fields = kindFields(lookupTools);
    const input = { policyDocument: options.policyDocument, draft, fields };
    const additions = await ask(domainDescriptionPrompt, input, (answer) => domainProblems(draft, fields, answer));
    const { currency, each } = additions.amounts ?? {};
    const amounts = currency === undefined ? undefined : { currency, ...(each === undefined ? {} : { each }) };
    return domainDescriptionSource(completeDomainDescription(draft, additions), amounts);
  };
  const helpers: ReadonlyMap<string, string> =
    options.helpers !== undefined && options.helpers.size > 0
      ? options.helpers
      : domainHelpers(options.timeZone, await describedDomain());
  const ajv = new Ajv({ allErrors: true, strict: false });
  const files = new Map<string, string>([['types.ts', types], ...helpers]);
  const reports: PolicyReport[] = [];
  const guards: Manifest['guards'] = {};

  const runTests = (policy: string, file: string, code: string, cases: readonly TestCase[]) =>
    checkPolicyCode({
      typeChecker: options.typeChecker,
      sandbox: options.sandbox,
      files,
      file,
      code,
      policy,
      cases,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });

  /** Generates one policy's check test-first, or keeps the one the pack holds; says what became of it. */
  const generatePolicy = async (
    tool: ToolSpec,
    policy: ToolPolicySpec['policies'][number],
    validate: ValidateFunction,
    committedCases: readonly TestCase[],
  ): Promise<PolicyOutcome> => {
    const archivedReason = policy.archived ?? options.archived?.get(policy.id);
    if (archivedReason !== undefined) {
      return {
        entry: { id: policy.id, state: 'archived', reason: archivedReason },
        report: {
          tool: tool.name,
          policy: policy.id,
          state: 'archived',
          reason: archivedReason,
          origin: 'none',
          tests: { cases: 0, passed: 0 },
          repairs: 0,
        },
        cases: [],
      };
    }
    /** What an enforced policy adds to the pack: its hashes, its cases and its report. */
    const enforced = (
      code: string,
      record: PolicyRecord,
      cases: readonly TestCase[],
      origin: PolicyReport['origin'],
      repairs: number,
    ): PolicyOutcome => {
      const readsText = readsMessageText(code);
      const flagged = readsText.length === 0 ? {} : { readsText };
      return {
        entry: { id: policy.id, state: 'enforced', effect: policy.effect ?? 'deny' },
        report: {
          tool: tool.name,
          policy: policy.id,
          state: 'enforced',
          origin,
          tests: { cases: cases.length, passed: cases.length },
          repairs,
          ...flagged,
        },
        cases,
        enforced: { specHash: record.specHash, codeHash: record.codeHash, ...flagged },
      };
    };
    const file = policyFile(tool.name, policy.id);
    const specHash = contentHash(
      JSON.stringify([
        policy,
        tool.parameters,
        types,
        [...helpers],
        implementationPrompt.version,
        testCasesPrompt.version,
        options.timeZone ?? null,
      ]),
    );
    const existing = existsSync(join(out, file)) ? await readFile(join(out, file), 'utf8') : undefined;
    const record = previous[policy.id];
    const editedByHand = existing !== undefined && record !== undefined && contentHash(existing) !== record.codeHash;
    const savedCases = committedCases.filter((testCase) => testCase.policy === policy.id);

    if (
      existing !== undefined &&
      record !== undefined &&
      (editedByHand ? !options.force : record.specHash === specHash)
    ) {
      const origin = editedByHand ? 'kept' : 'unchanged';
      progress({ tool: tool.name, policy: policy.id, step: origin });
      return enforced(existing, record, savedCases, origin, 0);
    }

    progress({ tool: tool.name, policy: policy.id, step: 'lookups' });
    const needed = await ask(lookupsPrompt, { tool, policy, lookups: lookupTools }, (answer) =>
      answer.lookups
        .filter((name) => !lookupTools.some((lookup) => lookup.name === name))
        .map((name) => `\`${name}\` is not a lookup`),
    );
    const neededTools = lookupTools.filter((lookup) => needed.lookups.includes(lookup.name));
    const shownTypes = await policyTypes(tool, neededTools);
    const setting = {
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    };
    const examples = [
      ...policy.compliance_examples.map((example) => ({ kind: 'compliance' as const, example })),
      ...policy.violation_examples.map((example) => ({ kind: 'violation' as const, example })),
    ];
    progress({ tool: tool.name, policy: policy.id, step: 'test_case', detail: `${examples.length} examples` });
    const answer = await ask(
      testCasesPrompt,
      { tool, policy, lookups: needed.lookups, types: shownTypes, ...setting },
      (value) => caseProblems(value.cases, examples.length, (args) => (validate(args) ? [] : (validate.errors ?? []))),
    );
    const cases: TestCase[] = examples.map(({ kind, example }, index) => {
      const {
        arguments: args,
        conversation,
        lookups,
      } = answer.cases.find((item) => item.index === index) ?? {
        arguments: {},
        conversation: [],
        lookups: [],
      };
      return {
        tool: tool.name,
        policy: policy.id,
        kind,
        example,
        arguments: args,
        conversation,
        lookups,
        ...(options.clock === undefined ? {} : { now: options.clock }),
      };
    });
    await writeText(join(out, '.build', tool.name, `${policy.id}.cases.json`), `${JSON.stringify(cases, null, 2)}\n`);

    progress({ tool: tool.name, policy: policy.id, step: 'implementation' });
    const input = {
      tool,
      policy,
      file,
      types: shownTypes,
      helpers,
      lookups: needed.lookups,
      argsType: argsTypeName(tool.name),
      cases,
      ...setting,
    };
    let code = (await ask(implementationPrompt, input)).code;
    let result = await runTests(policy.id, file, code, cases);
    let repairs = 0;
    await writeText(join(out, '.build', tool.name, `${policy.id}.attempt-0.ts`), code);
    while ((result.typeErrors.length > 0 || result.failures.length > 0) && repairs < maxRepairs) {
      repairs++;
      progress({
        tool: tool.name,
        policy: policy.id,
        step: 'repair',
        detail: [...result.typeErrors, ...result.failures][0] ?? '',
      });
      try {
        code = (await ask(repairPrompt, { file, code, typeErrors: result.typeErrors, failures: result.failures })).code;
      } catch (error) {
        if (!(error instanceof StepFailedError)) throw error;
        break;
      }
      await writeText(join(out, '.build', tool.name, `${policy.id}.attempt-${repairs}.ts`), code);
      result = await runTests(policy.id, file, code, cases);
    }
    if (result.typeErrors.length === 0 && result.failures.length === 0) {
      progress({ tool: tool.name, policy: policy.id, step: 'enforced' });
      await writeText(join(out, file), code);
      return enforced(code, { specHash, codeHash: contentHash(code) }, cases, 'generated', repairs);
    }
    const last = [...result.typeErrors, ...result.failures][0] ?? 'unknown';
    const reason = `no implementation went green after ${repairs} repairs; last failure: ${last}`;
    progress({ tool: tool.name, policy: policy.id, step: 'not_enforced', detail: reason });
    await rm(join(out, file), { force: true });
    return {
      entry: { id: policy.id, state: 'not_enforced', reason },
      report: {
        tool: tool.name,
        policy: policy.id,
        state: 'not_enforced',
        reason,
        origin: 'none',
        tests: { cases: cases.length, passed: result.passed },
        repairs,
      },
      cases: [],
    };
  };

  const jobs: {
    tool: ToolSpec;
    policy: ToolPolicySpec['policies'][number];
    validate: ValidateFunction;
    committedCases: TestCase[];
  }[] = [];
  const specified = options.tools.flatMap((tool) => {
    const spec = options.specs.get(tool.name);
    return spec === undefined ? [] : [{ tool, spec }];
  });
  for (const { tool, spec } of specified) {
    const validate = ajv.compile({ additionalProperties: false, ...tool.parameters });
    const casesPath = join(out, 'tests', `${tool.name}.cases.json`);
    const committedCases = existsSync(casesPath) ? (JSON.parse(await readFile(casesPath, 'utf8')) as TestCase[]) : [];
    for (const policy of spec.policies) jobs.push({ tool, policy, validate, committedCases });
  }
  const outcomes = await mapConcurrently(jobs, options.concurrency ?? 1, (job) =>
    generatePolicy(job.tool, job.policy, job.validate, job.committedCases),
  );
  for (const { tool, spec } of specified) {
    const mine = outcomes.filter((outcome) => outcome.report.tool === tool.name);
    for (const { report, enforced } of mine) {
      reports.push(report);
      if (enforced !== undefined) records[report.policy] = enforced;
    }
    const specFile = `spec/${tool.name}.json`;
    await writeText(join(out, specFile), `${JSON.stringify(spec, null, 2)}\n`);
    const guardFile = `guards/${tool.name}.ts`;
    const enforcedIds = mine.flatMap((outcome) => (outcome.enforced === undefined ? [] : [outcome.report.policy]));
    await writeText(join(out, guardFile), guardIndexSource(tool.name, enforcedIds));
    const allCases = mine.flatMap((outcome) => outcome.cases);
    await writeText(join(out, 'tests', `${tool.name}.cases.json`), `${JSON.stringify(allCases, null, 2)}\n`);
    guards[tool.name] = { spec: specFile, guard: guardFile, policies: mine.map((outcome) => outcome.entry) };
  }

  await writeText(join(out, 'types.ts'), types);
  for (const [path, source] of helpers) await writeText(join(out, path), source);
  await writeText(join(out, 'policy.md'), options.policyDocument);
  await writeText(join(out, 'tools.json'), `${JSON.stringify(options.tools, null, 2)}\n`);
  await writeText(join(out, 'tests', 'cases.test.ts'), caseRunnerSource);
  const manifest: Manifest = {
    format: 1,
    domain: options.domain,
    description: options.description,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    policyDocument: 'policy.md',
    reviewed: options.reviewed ?? false,
    tools: 'tools.json',
    guards,
    general: options.general ?? [],
    generated: records,
  };
  await writeText(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return reports;
}
