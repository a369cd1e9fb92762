import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { askStep, type StepRunner } from '../compiler/ask-step.ts';
import type { Budget } from '../llm/budget.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { runClassified } from './classify-with-model.ts';
import { compilePrompt, compileRepairPrompt } from './compile-prompts.ts';
import { type DemonstrationMemory, taskValue } from './memory.ts';
import { runProgramCode } from './program-pack.ts';
import { staticCheck } from './static-check.ts';
import { Classifier, classifyFunction } from './toolbox/classify.ts';
import { codeToolbox, describeToolbox, selectFunctions } from './toolbox/code-toolbox.ts';
import type { Toolbox } from './toolbox/toolbox.ts';

/** What compiling a guard request gave. */
export interface CompiledProgram {
  /** `green` when the program decides every demonstration as labelled (and was written), `failing` otherwise. */
  state: 'green' | 'failing';
  passed: number;
  total: number;
  repairs: number;
  /** What the last program got wrong, when failing. */
  failures: string[];
}

/**
 * Compiled mode of the guard agent: asks the model once for a program over (input, output), tests it in the isolate
 * against every demonstration in memory for the request (as the compiler tests guards), and repairs it with the
 * wrong decisions fed back, up to `maxRepairs`. A green program is written as a guard program pack, unreviewed (it
 * runs in an isolate until a person reviews it); a failing one is not written.
 *
 * @example
 * ```ts
 * const compiled = await compileGuardProgram({ request, spec, memory, model, budget, toolbox, out: 'packs/my-guard' });
 * ```
 */
export async function compileGuardProgram(options: {
  request: string;
  spec: string;
  memory: DemonstrationMemory;
  model: LanguageModel;
  budget: Budget;
  toolbox: Toolbox;
  out: string;
  maxRepairs?: number;
  /** Time limit of one model call. Default 120 s. */
  modelTimeoutMs?: number;
  /**
   * The toolbox functions the request can use, by name (default: all but `Classify`). With `Classify`, testing the
   * program asks the model once per demonstration text not classified before (kept in the memory).
   */
  functions?: readonly string[];
}): Promise<CompiledProgram> {
  const runner: StepRunner = {
    model: options.model,
    budget: options.budget,
    ...(options.modelTimeoutMs === undefined ? {} : { timeoutMs: options.modelTimeoutMs }),
  };
  const base = codeToolbox(options.toolbox);
  const classifier = new Classifier(options.memory);
  const classify = classifyFunction(classifier);
  const functions = selectFunctions([...base, classify], options.functions ?? base.map((item) => item.name));
  const toolbox = describeToolbox(functions);
  const demonstrations = options.memory.all().filter((item) => item.request === options.request);
  const test = async (code: string) => {
    const problems = staticCheck(
      code.replace(/function program\b/, 'function guard'),
      functions.map((item) => item.name),
    );
    if (problems.length > 0) return [`the code was rejected before running: ${problems.join('; ')}`];
    const failures: string[] = [];
    for (const [index, item] of demonstrations.entries()) {
      const task = { input: taskValue(item.input), output: taskValue(item.output) };
      const decision = await runClassified(runner, classifier, () =>
        runProgramCode(code, task, options.toolbox, [classify]),
      );
      const got =
        decision === undefined
          ? 'asked Classify new questions on every run'
          : typeof decision === 'string'
            ? decision
            : 'abstain' in decision
              ? `abstained (${decision.abstain})`
              : `label ${decision.label}`;
      if (got !== `label ${item.label}`)
        failures.push(`task ${index + 1}: expected label ${item.label}, the program ${got}`);
    }
    return failures;
  };
  let { code } = await askStep(runner, compilePrompt, {
    request: options.request,
    spec: options.spec,
    toolbox,
    demonstrations,
  });
  let failures = await test(code);
  let repairs = 0;
  while (failures.length > 0 && repairs < (options.maxRepairs ?? 3)) {
    repairs++;
    code = (await askStep(runner, compileRepairPrompt, { code, failures, toolbox })).code;
    failures = await test(code);
  }
  const total = demonstrations.length;
  if (failures.length > 0) return { state: 'failing', passed: total - failures.length, total, repairs, failures };
  await mkdir(options.out, { recursive: true });
  await writeFile(join(options.out, 'program.ts'), code.endsWith('\n') ? code : `${code}\n`);
  const examples = demonstrations.map((item) => ({
    input: taskValue(item.input),
    output: taskValue(item.output),
    label: item.label,
  }));
  await writeFile(join(options.out, 'demonstrations.json'), `${JSON.stringify(examples, null, 2)}\n`);
  const manifest = {
    format: 1,
    kind: 'guard-program',
    request: options.request,
    reviewed: false,
    program: 'program.ts',
    demonstrations: 'demonstrations.json',
  };
  await writeFile(join(options.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { state: 'green', passed: total, total, repairs, failures: [] };
}
