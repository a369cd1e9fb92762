import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Conversation } from '../model/conversation.ts';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';

const trajectorySchema = z
  .object({
    task_id: z.union([z.number(), z.string()]),
    trial: z.number().int().default(0),
    reward: z.number().optional(),
    traj: z.array(z.unknown()),
  })
  .loose();

/** One recorded agent run. */
export interface Trajectory {
  /** `<task_id>-<trial>`. */
  id: string;
  reward: number | undefined;
  conversation: Conversation;
}

/**
 * Reads a tau-bench trajectory file: a JSON list of `{task_id, trial, reward, traj}` where `traj` holds OpenAI chat
 * messages. Throws an `InputError` naming the file and the JSON path of every problem.
 *
 * @example
 * ```ts
 * const runs = await readTrajectories('data/tau-airline/trajectories-gpt-4o.json');
 * ```
 */
export async function readTrajectories(file: string): Promise<Trajectory[]> {
  const value = parseJsonText(await readFile(file, 'utf8'), file);
  const runs = parseInput(z.array(trajectorySchema), value, file);
  return runs.map((run, index) => ({
    id: `${run.task_id}-${run.trial}`,
    reward: run.reward,
    conversation: fromOpenAIChat(run.traj, file, `$[${index}].traj`),
  }));
}
