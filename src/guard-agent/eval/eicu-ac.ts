import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseInput, parseJsonText } from '../../model/parse-input.ts';
import type { GuardProgram } from '../guard-program.ts';
import type { Toolbox } from '../toolbox/toolbox.ts';

const scenarioSchema = z.object({
  schema: z.record(z.string(), z.array(z.string())),
  roles: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  questions: z.array(z.object({ id: z.string(), question: z.string(), query: z.string() })),
});

/** The EICU-AC scenario: the eICU schema, the three roles' readable columns, and EHRSQL's questions with SQL. */
export type EicuAcScenario = z.output<typeof scenarioSchema>;

/** Reads the scenario file (`data/eicu-ac/eicu-ac.json`). */
export async function readEicuAc(file: string): Promise<EicuAcScenario> {
  return parseInput(scenarioSchema, parseJsonText(await readFile(file, 'utf8'), file), file);
}

/** One decision of the scenario. */
export interface EicuAcLine {
  index: number;
  role: string;
  verdict: 'permit' | 'deny';
  denied_tables: string[];
  /** Why the query's reads could not be determined (a denial), when so. */
  undetermined?: string;
}

/**
 * Decides every question for every role: a role may run a question's query when it reads only the role's tables and
 * columns, as SQLite itself resolves the query (EHRSQL writes for SQLite). A query SQLite refuses is denied as
 * undetermined, with SQLite's message.
 *
 * @example
 * ```ts
 * const { lines, summary } = evaluateEicuAc(await readEicuAc('data/eicu-ac/eicu-ac.json'), program, toolbox);
 * ```
 */
export function evaluateEicuAc(scenario: EicuAcScenario, program: GuardProgram, toolbox: Toolbox) {
  const lines: EicuAcLine[] = [];
  const summary: Record<string, { permit: number; deny: number; undetermined: number }> = {};
  for (const [role, permissions] of Object.entries(scenario.roles)) {
    const counts = { permit: 0, deny: 0, undetermined: 0 };
    summary[role] = counts;
    scenario.questions.forEach((question, index) => {
      const decision = program(
        { input: { permissions, schema: scenario.schema, dialect: 'sqlite' }, output: question.query },
        toolbox,
      );
      if ('abstain' in decision)
        throw new Error(`the program abstained on question ${question.id}: ${decision.abstain}`);
      const undetermined = decision.reasons.find((reason) => reason.kind === 'undetermined');
      const line: EicuAcLine = {
        index,
        role,
        verdict: decision.label === 0 ? 'permit' : 'deny',
        denied_tables: decision.reasons.flatMap((reason) => (reason.kind === 'access' ? [reason.table] : [])),
      };
      if (undetermined?.kind === 'undetermined') {
        line.undetermined = undetermined.message;
        counts.undetermined++;
      } else counts[line.verdict]++;
      lines.push(line);
    });
  }
  return { lines, summary };
}
