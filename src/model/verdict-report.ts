import { z } from 'zod';
import { feedbackFor } from '../runtime/feedback.ts';
import type { Verdict } from './verdict.ts';

const decisionSchema = z.enum(['allow', 'deny', 'ask']);
const faultSchema = z.enum([
  'threw',
  'timeout',
  'malformed',
  'missing_guard',
  'not_enforced',
  'unknown_tool',
  'invalid_arguments',
]);

/** Schema of a verdict as JSON with the feedback for the agent: what `agentguard check` prints and the service answers. */
export const verdictReportSchema = z.object({
  decision: decisionSchema.describe('The decision in effect: in shadow mode always `allow`'),
  evaluated: decisionSchema.describe('The decision the policies reached'),
  tool: z.string(),
  callId: z.string(),
  violations: z
    .array(
      z.object({
        policy: z.string().describe('Stable policy id, or `runtime.<fault>` for a call no policy covers'),
        name: z.string(),
        message: z.string().describe('What is wrong, for the agent'),
        references: z.array(z.string()).readonly().describe('Verbatim sentences of the policy document'),
        effect: z.enum(['deny', 'ask']),
        remedy: z.string().optional(),
        question: z.string().optional(),
        facts: z.record(z.string(), z.unknown()).optional(),
        fault: faultSchema.optional().describe('Set when the policy could not be evaluated'),
      }),
    )
    .readonly(),
  diagnostics: z.object({
    policies: z.array(z.string()).readonly().describe('Ids of the policies evaluated'),
    errors: z.array(z.object({ policy: z.string(), fault: faultSchema, message: z.string() })).readonly(),
    durationUs: z.number().describe('Time spent deciding, in microseconds'),
  }),
  feedback: z.string().describe('The message to hand the agent instead of the tool result; empty when allowed'),
});

/** A verdict as JSON with the feedback for the agent. */
export type VerdictReport = z.output<typeof verdictReportSchema>;

/**
 * The verdict with its feedback, as `agentguard check` prints it and `POST /v1/check` answers it.
 *
 * @example
 * ```ts
 * process.stdout.write(JSON.stringify(verdictReport(verdict), null, 2));
 * ```
 */
export function verdictReport(verdict: Verdict): VerdictReport {
  return { ...verdict, feedback: feedbackFor(verdict) };
}
