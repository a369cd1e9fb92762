import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import type { AskOutcome } from '../audit/audit-record.ts';
import { InputError, type InputIssue } from '../errors.ts';
import type { Message } from '../model/conversation.ts';
import { jsonPath } from '../model/parse-input.ts';
import type { Decision } from '../model/verdict.ts';
import type { LookupRecord } from '../replay/recording-invoker.ts';
import { readTrajectories, type Trajectory } from '../replay/trajectories.ts';

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
  /** The policy's clock the call was decided at (ISO 8601), where the source keeps it. */
  now?: string;
  /** The conversation before the call, where the source can give it (a replay read with its runs). */
  conversation?: readonly Message[];
  /** What the source keeps of the conversation when it keeps no messages: their number and digest (an audit log). */
  conversationDigest?: { messages: number; sha256: string };
  /** The lookups the guards made to decide the call and what they returned, where the source recorded them. */
  lookups?: readonly LookupRecord[];
  /** For an asked call: the person's answer and whether the call ran, where the source recorded it. */
  askOutcome?: AskOutcome;
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
  lookups: z
    .array(
      z.object({
        tool: z.string(),
        arguments: z.record(z.string(), z.unknown()),
        result: z.unknown().optional(),
        error: z.string().optional(),
      }),
    )
    .optional(),
});

/** Options of `replayDecisionSource`. */
export interface ReplaySourceOptions {
  /**
   * The recorded runs the replay was made from (a tau-bench trajectory file): each decision then carries the
   * conversation before its call. Read once.
   */
  trajectories?: string;
}

/**
 * The decisions of a replay (`agentguard replay … --out verdicts.jsonl`): one JSON line per recorded tool call,
 * labelled with the file's name, with the lookups the guards made; with `trajectories`, also the conversation before
 * each call. A malformed line throws an `InputError` naming its line; lines written before replays kept the call's
 * arguments or lookups are read without them; a decision whose run is not among the trajectories throws. The file is
 * read again when its time or size changed.
 *
 * @example
 * ```ts
 * const records = await replayDecisionSource('verdicts.jsonl', { trajectories: 'trajectories.json' }).read();
 * ```
 */
export function replayDecisionSource(file: string, options: ReplaySourceOptions = {}): DecisionSource {
  let runs: Promise<Map<string, Trajectory>> | undefined;
  /** The records as last read, kept while the file's time and size stay the same. */
  let cached: { version: string; records: DecisionRecord[] } | undefined;
  const runsById = () => {
    const { trajectories } = options;
    if (trajectories === undefined) return undefined;
    runs ??= readTrajectories(trajectories).then((read) => new Map(read.map((run) => [run.id, run])));
    return runs;
  };
  return {
    label: basename(file),
    async read() {
      const recorded = await runsById();
      let text: string;
      let version: string;
      try {
        const stats = await stat(file);
        version = `${stats.mtimeMs}:${stats.size}`;
        if (cached?.version === version) return cached.records;
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
        const record: DecisionRecord = {
          origin: `run ${entry.trajectory}, message ${entry.message_index}`,
          call: { name: entry.tool, ...(entry.arguments === undefined ? {} : { arguments: entry.arguments }) },
          decision: entry.verdict,
          violations: entry.violations,
        };
        if (entry.lookups !== undefined) {
          record.lookups = entry.lookups.map(({ tool, arguments: args, result, error }) => ({
            tool,
            arguments: args,
            ...(error === undefined ? { result } : { error }),
          }));
        }
        if (recorded !== undefined) {
          const run = recorded.get(entry.trajectory);
          if (run === undefined) {
            issues.push({
              location: `line ${index + 1} $.trajectory`,
              message: `run \`${entry.trajectory}\` is not in \`${options.trajectories}\``,
            });
            return;
          }
          record.conversation = run.conversation.messages.slice(0, entry.message_index);
        }
        records.push(record);
      });
      if (issues.length > 0) throw new InputError(file, issues);
      cached = { version, records };
      return records;
    },
  };
}
