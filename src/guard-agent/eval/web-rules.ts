import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Budget } from '../../llm/budget.ts';
import { parseInput, parseJsonText } from '../../model/parse-input.ts';
import type { GuardAgent, GuardResult } from '../guard-agent.ts';
import { type Demonstration, taskText } from '../memory.ts';
import { checkRule, type Rule } from '../toolbox/check-rule.ts';

const ruleSchema = z.object({
  info: z.string(),
  operator: z.enum(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in']),
  value: z.unknown(),
  violation: z.string(),
});
const taskSchema = z.object({
  task_id: z.number().int(),
  sites: z.array(z.string()).min(1),
  intent: z.string().min(1),
  actions: z.array(z.string()),
  profile: z.string(),
  demonstration: z.boolean().optional(),
});

/** One web task of the set: its text and sites, the actions it involves (labelled by reading it), and its user. */
export type WebTask = z.output<typeof taskSchema>;

/** A rule request over web tasks (`data/webarena-rules/`): the request, the agent's spec, rules, profiles and tasks. */
export interface WebRuleSet {
  request: string;
  spec: string;
  /** The request's rules in CheckRule's form, by action: the ground truth applies them to the labelled actions. */
  rules: Record<string, Rule>;
  /** What each action covers, as the request defines it (the demonstrations' Classify question states it). */
  actions: Record<string, string>;
  profiles: Record<string, Record<string, unknown>>;
  tasks: WebTask[];
}

/** Reads a rule set folder: `request.md`, `spec.md`, `rules.json`, `actions.json`, `profiles.json` and `tasks.json`. */
export async function readWebRuleSet(dir: string): Promise<WebRuleSet> {
  const json = async <T>(name: string, schema: z.ZodType<T>) => {
    const file = join(dir, name);
    return parseInput(schema, parseJsonText(await readFile(file, 'utf8'), file), file);
  };
  const rules = await json('rules.json', z.record(z.string(), ruleSchema));
  const actions = await json('actions.json', z.record(z.string(), z.string()));
  const profiles = await json('profiles.json', z.record(z.string(), z.record(z.string(), z.unknown())));
  const tasks = await json('tasks.json', z.array(taskSchema));
  for (const task of tasks) {
    const unknown = task.actions.filter((action) => rules[action] === undefined);
    if (unknown.length > 0 || profiles[task.profile] === undefined)
      throw new Error(`task ${task.task_id}: unknown action or profile in \`${join(dir, 'tasks.json')}\``);
  }
  return {
    request: (await readFile(join(dir, 'request.md'), 'utf8')).trim(),
    spec: (await readFile(join(dir, 'spec.md'), 'utf8')).trim(),
    rules: rules as Record<string, Rule>,
    actions,
    profiles,
    tasks,
  };
}

/** The agent's input and output for a task: `{ task, user }` and `{ sites }`. */
export function webTaskQuery(set: WebRuleSet, task: WebTask) {
  return { input: { task: task.intent, user: set.profiles[task.profile] ?? {} }, output: { sites: task.sites } };
}

/** The ground truth of a task: the rules of the actions it was labelled with, applied to its user's profile. */
export function webTaskTruth(set: WebRuleSet, task: WebTask): { deny: boolean; violations: string[] } {
  const rules = Object.fromEntries(task.actions.map((action) => [action, set.rules[action] as Rule]));
  const decision = checkRule(rules, set.profiles[task.profile] ?? {});
  return { deny: decision.denied, violations: decision.violations.map((item) => item.violation) };
}

/**
 * How the guard agent meets the set: `loop` with CheckRule only (the model reads each task's text itself, in the plan
 * and the code), `classify` with CheckRule and Classify (kept code asks the model which actions a task involves).
 */
export type WebRuleMode = 'loop' | 'classify';

/** The toolbox functions of a mode. */
export const modeFunctions: Record<WebRuleMode, string[]> = {
  loop: ['CheckRule'],
  classify: ['CheckRule', 'Classify'],
};

/**
 * The set's demonstrations for a mode (tasks marked `demonstration`), with a plan and code written by people: in
 * `loop` mode the code holds the actions read from the task's text and abstains on any other text; in `classify` mode
 * it asks Classify. Either grants a task no rule concerns with an `unconcerned` reason.
 */
export function webDemonstrations(set: WebRuleSet, mode: WebRuleMode): Demonstration[] {
  const actions = Object.keys(set.rules);
  const question = `Which of these actions does the web task involve? ${actions
    .map((action) => `${action}: ${set.actions[action]}.`)
    .join(' ')} A task that only looks things up involves none of them.`;
  const decide = `  if (actions.length === 0) return { label: 0, reasons: [{ kind: 'unconcerned', why: 'the task only looks things up: no rule concerns it' }] };
  const rules = ${JSON.stringify(set.rules)};
  const decision = CheckRule(Object.fromEntries(actions.map((action) => [action, rules[action]])), input.user);
  if (!decision.denied) return { label: 0, reasons: [] };
  return { label: 1, reasons: decision.violations.map((item) => ({ kind: 'rule', rule: item.violation, user: input.user })) };
}`;
  return set.tasks
    .filter((task) => task.demonstration === true)
    .map((task) => {
      const { input, output } = webTaskQuery(set, task);
      const read =
        task.actions.length === 0 ? 'none of the listed actions' : `the action ${task.actions.join(' and ')}`;
      const code =
        mode === 'classify'
          ? `function guard(input, output) {\n  const actions = Classify(input.task, ${JSON.stringify(question)}, ${JSON.stringify(actions)});\n${decide}`
          : `function guard(input, output) {\n  if (input.task !== ${JSON.stringify(task.intent)}) return { abstain: 'written for another task' };\n  const actions = ${JSON.stringify(task.actions)};\n${decide}`;
      const plan =
        mode === 'classify'
          ? [
              'Ask Classify which of the listed actions the task involves.',
              "Check those actions' rules against the user's profile with CheckRule.",
            ]
          : [
              `Reading the task, it involves ${read}.`,
              "Check those actions' rules against the user's profile with CheckRule.",
            ];
      return {
        request: set.request,
        input: taskText(input),
        output: taskText(output),
        plan: plan.join('\n'),
        code,
        label: webTaskTruth(set, task).deny ? 1 : 0,
        source: 'seed' as const,
      };
    });
}

/** `limit` of the set's tasks that are not demonstrations, spread evenly over them in order. */
export function webTasks(set: WebRuleSet, limit: number): WebTask[] {
  const tasks = set.tasks.filter((task) => task.demonstration !== true);
  const count = Math.min(limit, tasks.length);
  return Array.from({ length: count }, (_, index) => tasks[Math.floor((index * tasks.length) / count)] as WebTask);
}

/** One task's line of the evaluation. */
export interface WebRuleLine {
  mode: WebRuleMode;
  index: number;
  task_id: number;
  verdict: 'permit' | 'deny';
  truth: 'permit' | 'deny';
  decided_by: GuardResult['decidedBy'];
  model_calls: number;
  /** Why the task could not be decided, when the guard agent itself failed (a model error, an exhausted budget). */
  error?: string;
}

/** Accuracy against the labels, the violations missed, and the model calls spent. */
export interface WebRuleSummary {
  mode: WebRuleMode;
  tasks: number;
  accuracy: number;
  /** Tasks the truth denies that the guard agent granted. */
  missed_violations: number;
  /** Tasks the truth grants that the guard agent denied. */
  false_denials: number;
  model_calls: number;
  calls_per_task: number;
  decided_by: Record<string, number>;
}

/** The figures of evaluated lines. */
export function summarizeWebRules(mode: WebRuleMode, lines: readonly WebRuleLine[]): WebRuleSummary {
  const count = (predicate: (line: WebRuleLine) => boolean) => lines.filter(predicate).length;
  const calls = lines.reduce((sum, line) => sum + line.model_calls, 0);
  const decidedBy: Record<string, number> = {};
  for (const line of lines) decidedBy[line.decided_by] = (decidedBy[line.decided_by] ?? 0) + 1;
  return {
    mode,
    tasks: lines.length,
    accuracy: lines.length === 0 ? 1 : count((line) => line.verdict === line.truth) / lines.length,
    missed_violations: count((line) => line.truth === 'deny' && line.verdict === 'permit'),
    false_denials: count((line) => line.truth === 'permit' && line.verdict === 'deny'),
    model_calls: calls,
    calls_per_task: lines.length === 0 ? 0 : calls / lines.length,
    decided_by: decidedBy,
  };
}

/**
 * Runs the guard agent on web tasks, one after another with one memory (seeded with the mode's demonstrations by
 * the caller), and scores each decision against the labels. A task the guard agent cannot finish is denied, with
 * the error on its line.
 *
 * @example
 * ```ts
 * const lines = await evaluateWebRules(set, 'classify', webTasks(set, 80), agent, budget);
 * ```
 */
export async function evaluateWebRules(
  set: WebRuleSet,
  mode: WebRuleMode,
  tasks: readonly WebTask[],
  agent: GuardAgent,
  budget: Budget,
  onLine: (line: WebRuleLine) => void = () => {},
): Promise<WebRuleLine[]> {
  const lines: WebRuleLine[] = [];
  for (const [index, task] of tasks.entries()) {
    const before = budget.total().calls;
    let result: Pick<GuardResult, 'label' | 'decidedBy'>;
    let error: string | undefined;
    try {
      result = await agent.check({
        request: set.request,
        spec: set.spec,
        ...webTaskQuery(set, task),
        functions: modeFunctions[mode],
      });
    } catch (caught) {
      error = (caught as Error).message;
      result = { label: 1, decidedBy: 'failed' };
    }
    const line: WebRuleLine = {
      mode,
      index,
      task_id: task.task_id,
      verdict: result.label === 0 ? 'permit' : 'deny',
      truth: webTaskTruth(set, task).deny ? 'deny' : 'permit',
      decided_by: result.decidedBy,
      model_calls: budget.total().calls - before,
      ...(error === undefined ? {} : { error }),
    };
    lines.push(line);
    onLine(line);
  }
  return lines;
}
