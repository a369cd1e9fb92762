import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseInput, parseJsonText } from '../model/parse-input.ts';

/** An action of tau-bench: a tool call, or `respond` with the agent's `content`. */
export interface Action {
  name: string;
  kwargs: Record<string, unknown>;
}

/** tau-bench's name for the agent's reply to the user. */
export const respondAction = 'respond';

/** A tau-bench task: the user's instruction, the gold actions and the outputs the agent must state. */
export interface Task {
  user_id: string;
  instruction: string;
  actions: Action[];
  outputs: string[];
}

/** The schema of a task, as tau-bench's `Task` model reads it. */
export const taskSchema = z
  .object({
    user_id: z.string(),
    instruction: z.string(),
    actions: z.array(z.object({ name: z.string(), kwargs: z.record(z.string(), z.unknown()) })),
    outputs: z.array(z.string()).default([]),
  })
  .loose();

/**
 * Reads a task file: a JSON list of tasks. Throws an `InputError` naming the file and the JSON path of every problem.
 *
 * @example
 * ```ts
 * const tasks = await readTasks('data/tau-retail/tasks_test.json');
 * ```
 */
export async function readTasks(file: string): Promise<Task[]> {
  return parseInput(z.array(taskSchema), parseJsonText(await readFile(file, 'utf8'), file), file).map(
    ({ user_id, instruction, actions, outputs }) => ({ user_id, instruction, actions, outputs }),
  );
}
