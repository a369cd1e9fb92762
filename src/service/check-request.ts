import { z } from 'zod';
import { openAIChatMessageSchema } from '../model/openai-chat.ts';

/** Schema of the body of `POST /v1/check`. */
export const checkRequestSchema = z.strictObject({
  call: z
    .strictObject({
      id: z.string().min(1).describe('The call id the agent gave'),
      name: z.string().min(1).describe('The tool'),
      arguments: z.record(z.string(), z.unknown()).describe('The arguments, as a JSON object'),
    })
    .describe('The tool call to decide'),
  messages: z
    .array(openAIChatMessageSchema)
    .default([])
    .describe('The conversation before the call, as OpenAI chat messages, oldest first'),
  now: z.iso
    .datetime({
      offset: true,
      error: (issue) =>
        typeof issue.input === 'string' && /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(issue.input)
          ? `expected an ISO 8601 date and time with an offset: add one, e.g. \`${issue.input}Z\` or \`${issue.input}-05:00\``
          : 'expected an ISO 8601 date and time with an offset, e.g. `2024-05-15T15:00:00-05:00`',
    })
    .optional()
    .describe("The policy's clock, ISO 8601 with an offset (default: the lookups' domain clock, else the time now)"),
});

/** The body of `POST /v1/check`. */
export type CheckRequest = z.output<typeof checkRequestSchema>;

/** Schema of every error answer: a stable code, a message, and for bad input every problem with its JSON path. */
export const problemSchema = z.object({
  error: z
    .string()
    .describe('A stable code: invalid_input, body_too_large, unsupported_media_type, audit_unavailable, …'),
  message: z.string(),
  issues: z
    .array(z.object({ location: z.string().describe('JSON path, or line and column'), message: z.string() }))
    .optional(),
});

/** An error answer of the service. */
export type Problem = z.output<typeof problemSchema>;

const part = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok') }),
  z.object({ status: z.literal('failing'), reason: z.string() }),
]);

/** Schema of `GET /healthz`. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'failing']).describe('`failing` (answered with 503) when any part is failing'),
  packs: z.array(z.string()).describe('The domains of the loaded packs'),
  guards: part.describe("Whether every enforced policy's check is loaded"),
  audit: part.optional().describe('Whether verdicts are being written to the audit log, when there is one'),
});

/** What `GET /healthz` answers. */
export type Health = z.output<typeof healthSchema>;
