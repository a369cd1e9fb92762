import { askStep, type StepRunner } from '../compiler/ask-step.ts';
import type { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { runIsolated } from '../sandbox/run-function.ts';
import { codePrompt, debugPrompt, planPrompt } from './agent-prompts.ts';
import type { GuardDecision, GuardReason } from './guard-program.ts';
import { type DemonstrationMemory, taskText } from './memory.ts';
import type { ProgramPack } from './program-pack.ts';
import { staticCheck } from './static-check.ts';
import { codeToolbox, describeToolbox, type ToolboxFunction } from './toolbox/code-toolbox.ts';
import type { Toolbox } from './toolbox/toolbox.ts';

/** A guard request to decide: the request, the target agent's specification, and its input and output. */
export interface GuardQuery {
  request: string;
  spec: string;
  input: unknown;
  output: unknown;
}

/** The decision and how it was reached. */
export interface GuardResult extends GuardDecision {
  /** `compiled` when the compiled program decided, `agent` when generated code did, `failed` when no code ran clean. */
  decidedBy: 'compiled' | 'agent' | 'failed';
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
  /** Demonstrations retrieved per request. Default 3. */
  demonstrations?: number;
}

function decisionOf(value: unknown): { label: 0 | 1; reasons: GuardReason[] } | string {
  if (typeof value !== 'object' || value === null)
    return `guard returned ${JSON.stringify(value)}, expected { label, reasons }`;
  const { label, reasons } = value as { label?: unknown; reasons?: unknown };
  if (label !== 0 && label !== 1) return `guard returned label ${JSON.stringify(label)}, expected 0 or 1`;
  if (reasons !== undefined && !Array.isArray(reasons)) return 'guard returned reasons that are not a list';
  return { label, reasons: (reasons ?? []) as GuardReason[] };
}

/**
 * The GuardAgent loop: retrieve demonstrations, plan with the model, generate guard code that uses only the toolbox,
 * check it statically, run it in an isolate, and on error analyse and regenerate, at most `maxDebug` times. The
 * decision comes from the executed code only; when no code runs clean, the request is denied. A compiled program,
 * when given, decides first and the loop runs only when it abstains.
 *
 * @example
 * ```ts
 * const result = await new GuardAgent({ model, budget, toolbox, memory }).check({ request, spec, input, output });
 * ```
 */
export class GuardAgent {
  private readonly options: GuardAgentOptions;
  private readonly functions: ToolboxFunction[];

  constructor(options: GuardAgentOptions) {
    this.options = options;
    this.functions = codeToolbox(options.toolbox, options.functions);
  }

  async check(query: GuardQuery): Promise<GuardResult> {
    const { compiled } = this.options;
    if (compiled !== undefined) {
      const decision = await compiled.decide({ input: query.input, output: query.output }, this.options.toolbox);
      if (!('abstain' in decision)) return { ...decision, decidedBy: 'compiled', plan: [], attempts: [] };
    }
    const runner: StepRunner = { model: this.options.model, budget: this.options.budget };
    const toolbox = describeToolbox(this.functions);
    const demonstrations = this.options.memory.retrieve(
      taskText(query.input),
      taskText(query.output),
      this.options.demonstrations ?? 3,
    );
    const context = { request: query.request, spec: query.spec, toolbox, demonstrations };
    const { plan } = await askStep(runner, planPrompt, { ...context, input: query.input, output: query.output });
    let { code } = await askStep(runner, codePrompt, { ...context, plan });
    const attempts: GuardResult['attempts'] = [];
    const names = this.functions.map((item) => item.name);
    const implementations = Object.fromEntries(this.functions.map((item) => [item.name, item.run]));
    for (let round = 0; ; round++) {
      const problems = staticCheck(code, names);
      let error: string | undefined;
      if (problems.length > 0) error = `the code was rejected before running: ${problems.join('; ')}`;
      else {
        const ran = await runIsolated({
          source: code,
          entry: 'guard',
          args: [query.input, query.output],
          functions: implementations,
          timeoutMs: this.options.timeoutMs ?? 1000,
        });
        const decision = ran.ok ? decisionOf(ran.value) : `the code failed: ${ran.error}`;
        if (typeof decision !== 'string') {
          attempts.push({ code });
          return {
            label: decision.label,
            reasons: decision.reasons,
            guardedOutput: decision.label === 0 ? query.output : null,
            decidedBy: 'agent',
            plan,
            attempts,
          };
        }
        error = decision;
      }
      attempts.push({ code, error });
      if (round >= (this.options.maxDebug ?? 3)) break;
      code = (await askStep(runner, debugPrompt, { code, error, toolbox })).code;
    }
    return {
      label: 1,
      reasons: [
        {
          kind: 'undetermined',
          message: `no guard code ran clean after ${attempts.length} tries; last error: ${attempts.at(-1)?.error}`,
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
    if (result.decidedBy !== 'agent' || code === undefined) return;
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
