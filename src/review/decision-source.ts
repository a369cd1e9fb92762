import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { InputError, type InputIssue } from '../errors.ts';
import { jsonPath } from '../model/parse-input.ts';
import type { Decision } from '../model/verdict.ts';

/** One decided tool call, as a decision source records it. */
export interface DecisionRecord {
  /** When the call was decided (ISO 8601); absent where the source has no clock, as in a replay. */
  time?: string;
  /** Where the call came from, for a reader: a run and message for a replay, a session for a live log. */
  origin: string;
  call: { name: string; arguments?: Record<string, unknown> };
  decision: Decision;
  /** The policies the call broke (or could not be decided on, `runtime.<fault>`), with the message for the agent. */
  violations: { policy: string; message: string }[];
}

/**
 * Where the review page reads the decisions made on real traffic: one method, so a replay file and a live audit log
 * plug in alike.
 */
export interface DecisionSource {
  /** What the decisions come from, for the page (a file name, a log's address). */
  readonly label: string;
  /** The records, oldest first. */
  read(): Promise<DecisionRecord[]>;
}

const replayLineSchema = z.object({
  trajectory: z.string(),
  message_index: z.number().int(),
  call_index: z.number().int(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  verdict: z.enum(['allow', 'deny', 'ask']),
  violations: z.array(z.object({ policy: z.string(), message: z.string() })),
});

/**
 * The decisions of a replay (`agentguard replay … --out verdicts.jsonl`): one JSON line per recorded tool call,
 * labelled with the file's name. A
 * malformed line throws an `InputError` naming its line; lines written before replays kept the call's arguments are
 * read without them.
 *
 * @example
 * ```ts
 * const records = await replayDecisionSource('verdicts.jsonl').read();
 * ```
 */
export function replayDecisionSource(file: string): DecisionSource {
  return {
    label: basename(file),
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new InputError(file, [{ location: '$', message: `cannot read: ${(error as Error).message}` }]);
      }
      const records: DecisionRecord[] = [];
      const issues: InputIssue[] = [];
      text.split('\n').forEach((line, index) => {
        if (line.trim() === '') return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (error) {
          issues.push({ location: `line ${index + 1}`, message: `not JSON: ${(error as Error).message}` });
          return;
        }
        const parsed = replayLineSchema.safeParse(value);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            issues.push({ location: `line ${index + 1} ${jsonPath(issue.path)}`, message: issue.message });
          }
          return;
        }
        const entry = parsed.data;
        records.push({
          origin: `run ${entry.trajectory}, message ${entry.message_index}`,
          call: { name: entry.tool, ...(entry.arguments === undefined ? {} : { arguments: entry.arguments }) },
          decision: entry.verdict,
          violations: entry.violations,
        });
      });
      if (issues.length > 0) throw new InputError(file, issues);
      return records;
    },
  };
}
