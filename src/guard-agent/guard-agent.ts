import { z } from 'zod';
import { askStep, type StepRunner } from '../compiler/ask-step.ts';
import type { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { runIsolated } from '../sandbox/run-function.ts';
import { codePrompt, debugPrompt, planPrompt } from './agent-prompts.ts';
import { runClassified } from './classify-with-model.ts';
import type { AgentReason, GuardDecision, GuardReason } from './guard-program.ts';
import { type DemonstrationMemory, taskText, taskValue } from './memory.ts';
import type { ProgramPack } from './program-pack.ts';
import { staticCheck } from './static-check.ts';
import { Classifier, classifyFunction } from './toolbox/classify.ts';
import {
  codeToolbox,
  describeToolbox,
  promptRulesOf,
  selectFunctions,
  type ToolboxFunction,
} from './toolbox/code-toolbox.ts';
import type { Toolbox } from './toolbox/toolbox.ts';

/** A guard request to decide: the request, the target agent's specification, and its input and output. */
export interface GuardQuery {
  request: string;
  spec: string;
  input: unknown;
  output: unknown;
  /**
   * The toolbox functions the request can use, by name: the prompts show only these, with only the rules they need.
   * Default: every function that calls no model (all but `Classify`).
   */
  functions?: readonly string[];
}

/** The decision and how it was reached. */
export interface GuardResult extends Omit<GuardDecision, 'reasons'> {
  /** The reasons of a compiled program, or those generated code returned (typed in the code prompt). */
  reasons: (GuardReason | AgentReason)[];
  /**
   * `compiled` when the compiled program decided, `program` when code kept from earlier tasks of the request did,
   * `agent` when code written for this task did, `failed` when no code ran clean.
   */
  decidedBy: 'compiled' | 'program' | 'agent' | 'failed';
  plan: string[];
  /** Every piece of code tried, with the error it met, last one first to run clean (if any). */
  attempts: { code: string; error?: string }[];
}

/** What the guard agent needs. */
export interface GuardAgentOptions {
  model: LanguageModel;
  budget: Budget;
  toolbox: Toolbox;
  memory: DemonstrationMemory;
  /** Functions users add to the toolbox. */
  functions?: readonly ToolboxFunction[];
  /** A compiled program to try first; the loop runs only when it abstains. */
  compiled?: ProgramPack;
  /** Debug rounds after the first code. Default 3. */
  maxDebug?: number;
  /** Time limit of one run of generated code. Default 1000 ms. */
  timeoutMs?: number;
  /** Time limit of one model call. Default 120 s. */
  modelTimeoutMs?: number;
  /** Demonstrations retrieved per request. Default 3. */
  demonstrations?: number;
}

const reasonSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('access'),
    role: z.string(),
    tables: z.array(z.string()),
    columns: z.record(z.string(), z.array(z.string())),
  }),
  z.object({ kind: z.literal('rule'), rule: z.string(), user: z.record(z.string(), z.unknown()) }),
  z.object({ kind: z.literal('undetermined'), why: z.string() }),
  z.object({ kind: z.literal('unconcerned'), why: z.string() }),
]);

/** What guard code returned: a decision with typed reasons, an abstention, or what is wrong with it. */
function decisionOf(value: unknown): { label: 0 | 1; reasons: AgentReason[] } | { abstain: string } | string {
  if (typeof value !== 'object' || value === null)
    return `guard returned ${JSON.stringify(value)}, expected { label, reasons } or { abstain }`;
  const { label, reasons, abstain } = value as { label?: unknown; reasons?: unknown; abstain?: unknown };
  if (typeof abstain === 'string') return { abstain };
  if (label !== 0 && label !== 1) return `guard returned label ${JSON.stringify(label)}, expected 0 or 1`;
  const parsed = z.array(reasonSchema).safeParse(reasons ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `guard returned reasons that do not match the Reason type: at reasons.${issue?.path.join('.')}: ${issue?.message}`;
  }
  if (label === 1 && parsed.data.length === 0) return 'guard denied with no reason: label 1 needs at least one reason';
  return { label, reasons: parsed.data as AgentReason[] };
}

/** One run of guard code in the isolate, with the toolbox calls it made. */
type Run =
  | { ok: true; label: 0 | 1; reasons: AgentReason[]; overruled: boolean }
  | { ok: false; abstain?: string; error: string };

/**
 * The GuardAgent loop: retrieve demonstrations, plan with the model, generate guard code that uses only the toolbox,
 * check it statically, run it in an isolate, and on error analyse and regenerate, at most `maxDebug` times. The
 * decision comes from the executed code only; when no code runs clean, the request is denied. A grant is turned into
 * a denial when a toolbox function reported that it could not determine something, or, where the request's toolbox
 * reads queries, when the code consulted no toolbox function: a read that cannot be determined denies. Elsewhere a
 * grant that calls no toolbox function must say why no rule concerns the task (an `unconcerned` reason). Code may ask
 * `Classify` (when the request names it) the judgements only reading a text can make: one model call per new text,
 * cached in the memory. A compiled program, when given, decides first; then
 * the code kept from earlier tasks of the same request (when it still decides the memory's demonstrations for the
 * request as labelled); the loop runs only when they abstain or fail, and code that decided a task (its grant not
 * overruled) is kept.
 *
 * @example
 * ```ts
 * const result = await new GuardAgent({ model, budget, toolbox, memory }).check({ request, spec, input, output });
 * ```
 */
export class GuardAgent {
  private readonly options: GuardAgentOptions;
  private readonly functions: ToolboxFunction[];
  /** The functions a request gets when it names none: all but those that call a model. */
  private readonly defaultFunctions: string[];
  private readonly classifier: Classifier;
  /** `Classify`, answered by the model and cached in the memory; offered to kept, generated and compiled code. */
  private readonly classify: ToolboxFunction;
  private readonly runner: StepRunner;
  /** Programs checked against the memory's demonstrations, by request, functions, code and demonstration count. */
  private readonly verified = new Map<string, boolean>();

  constructor(options: GuardAgentOptions) {
    this.options = options;
    const base = codeToolbox(options.toolbox, options.functions);
    this.classifier = new Classifier(options.memory);
    this.classify = classifyFunction(this.classifier);
    this.functions = [...base, this.classify];
    this.defaultFunctions = base.map((item) => item.name);
    this.runner = {
      model: options.model,
      budget: options.budget,
      ...(options.modelTimeoutMs === undefined ? {} : { timeoutMs: options.modelTimeoutMs }),
    };
  }

  /** Runs guard code once in the isolate; the decision, with a grant overruled when nothing determined it. */
  private async runOnce(
    code: string,
    input: unknown,
    output: unknown,
    functions: readonly ToolboxFunction[],
  ): Promise<Run> {
    const problems = staticCheck(
      code,
      functions.map((item) => item.name),
    );
    if (problems.length > 0)
      return { ok: false, error: `the code was rejected before running: ${problems.join('; ')}` };
    let calls = 0;
    const undetermined: string[] = [];
    const implementations = Object.fromEntries(
      functions.map((item) => [
        item.name,
        (...args: unknown[]) => {
          calls++;
          const result = item.run(...args);
          const why = item.undetermined?.(result);
          if (why !== undefined) undetermined.push(`${item.name}: ${why}`);
          return result;
        },
      ]),
    );
    const ran = await runIsolated({
      source: code,
      entry: 'guard',
      args: [input, output],
      functions: implementations,
      timeoutMs: this.options.timeoutMs ?? 1000,
    });
    const decision = ran.ok ? decisionOf(ran.value) : `the code failed: ${ran.error}`;
    if (typeof decision === 'string') return { ok: false, error: decision };
    if ('abstain' in decision)
      return { ok: false, abstain: decision.abstain, error: `the code abstained: ${decision.abstain}` };
    // Where the toolbox reads queries, what was read must be determined: a grant that read nothing is overruled.
    const determinesReads = functions.some((item) => item.undetermined !== undefined);
    if (decision.label === 0 && ((determinesReads && calls === 0) || undetermined.length > 0)) {
      const why =
        calls === 0
          ? 'the code granted without consulting the toolbox, so what was read is not determined'
          : `the code granted although the toolbox could not determine the task: ${undetermined.join('; ')}`;
      return { ok: true, label: 1, reasons: [{ kind: 'undetermined', why }], overruled: true };
    }
    if (decision.label === 0 && calls === 0 && !decision.reasons.some((reason) => reason.kind === 'unconcerned'))
      return {
        ok: false,
        error:
          'the code granted without calling the toolbox and without saying why: a grant that calls no toolbox function needs an `unconcerned` reason saying why no rule of the guard request concerns the task',
      };
    return { ok: true, label: decision.label, reasons: decision.reasons, overruled: false };
  }

  /** Runs guard code on a task, asking the model the classifications it needs first (see `runClassified`). */
  private async run(
    code: string,
    input: unknown,
    output: unknown,
    functions: readonly ToolboxFunction[],
  ): Promise<Run> {
    const run = await runClassified(this.runner, this.classifier, () => this.runOnce(code, input, output, functions));
    return (
      run ?? {
        ok: false,
        error: `the code asked \`Classify\` new questions on every run: ask it with fixed questions and labels`,
      }
    );
  }

  /** Whether kept code still decides every demonstration of the request in memory as labelled. */
  private async passesDemonstrations(
    request: string,
    code: string,
    functions: readonly ToolboxFunction[],
  ): Promise<boolean> {
    const demonstrations = this.options.memory.all().filter((item) => item.request === request);
    const names = functions.map((item) => item.name).join(',');
    const key = `${demonstrations.length}\u0000${names}\u0000${request}\u0000${code}`;
    let passes = this.verified.get(key);
    if (passes === undefined) {
      passes = true;
      for (const item of demonstrations) {
        const run = await this.run(code, taskValue(item.input), taskValue(item.output), functions);
        if (!run.ok || run.label !== item.label) {
          passes = false;
          break;
        }
      }
      this.verified.set(key, passes);
    }
    return passes;
  }

  async check(query: GuardQuery): Promise<GuardResult> {
    const { compiled, memory } = this.options;
    if (compiled !== undefined) {
      const task = { input: query.input, output: query.output };
      const decision = await runClassified(this.runner, this.classifier, () =>
        compiled.decide(task, this.options.toolbox, [this.classify]),
      );
      if (decision !== undefined && !('abstain' in decision))
        return { ...decision, decidedBy: 'compiled', plan: [], attempts: [] };
    }
    const functions = selectFunctions(this.functions, query.functions ?? this.defaultFunctions);
    const decided = (run: Run & { ok: true }) => ({
      label: run.label,
      reasons: run.reasons,
      guardedOutput: run.label === 0 ? query.output : null,
    });
    for (const { code } of memory.programs(query.request)) {
      if (!(await this.passesDemonstrations(query.request, code, functions))) continue;
      const run = await this.run(code, query.input, query.output, functions);
      if (!run.ok) continue;
      memory.keepProgram(query.request, code);
      return { ...decided(run), decidedBy: 'program', plan: [], attempts: [{ code }] };
    }
    const demonstrations = memory.retrieve(
      taskText(query.input),
      taskText(query.output),
      this.options.demonstrations ?? 3,
    );
    const task = { input: query.input, output: query.output };
    const shown = {
      request: query.request,
      toolbox: describeToolbox(functions),
      toolboxRules: promptRulesOf(functions),
      access: functions.some((item) => item.name === 'CheckAccess'),
      classify: functions.some((item) => item.name === 'Classify'),
    };
    const context = { ...shown, spec: query.spec, demonstrations };
    const { plan } = await askStep(this.runner, planPrompt, { ...context, ...task });
    let { code } = await askStep(this.runner, codePrompt, { ...context, ...task, plan });
    const attempts: GuardResult['attempts'] = [];
    for (let round = 0; ; round++) {
      const run = await this.run(code, query.input, query.output, functions);
      if (run.ok) {
        attempts.push({ code });
        // Code whose grant was overruled is not kept: it would deny every later task it grants.
        if (!run.overruled) memory.keepProgram(query.request, code);
        return { ...decided(run), decidedBy: 'agent', plan, attempts };
      }
      attempts.push({ code, error: run.error });
      if (round >= (this.options.maxDebug ?? 3)) break;
      code = (await askStep(this.runner, debugPrompt, { ...shown, ...task, plan, code, error: run.error })).code;
    }
    return {
      label: 1,
      reasons: [
        {
          kind: 'undetermined',
          why: `no guard code ran clean after ${attempts.length} tries; last error: ${attempts.at(-1)?.error}`,
        },
      ],
      guardedOutput: null,
      decidedBy: 'failed',
      plan,
      attempts,
    };
  }

  /** Stores a decided task whose decision a person confirmed, so later requests retrieve it. */
  confirm(query: GuardQuery, result: GuardResult): void {
    const code = result.attempts.at(-1)?.code;
    if ((result.decidedBy !== 'agent' && result.decidedBy !== 'program') || code === undefined) return;
    this.options.memory.add({
      request: query.request,
      input: taskText(query.input),
      output: taskText(query.output),
      plan: result.plan.join('\n'),
      code,
      label: result.label,
      source: 'confirmed',
    });
  }
}
