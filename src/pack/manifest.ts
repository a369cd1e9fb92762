import { z } from 'zod';

const policyEntrySchema = z.discriminatedUnion('state', [
  z.object({
    id: z.string(),
    state: z.literal('enforced'),
    /** `deny` or `ask`; when absent, the spec's `effect`, else `deny` (see `loadPack`). */
    effect: z.enum(['deny', 'ask']).optional(),
  }),
  z.object({ id: z.string(), state: z.literal('not_enforced'), reason: z.string().min(1) }),
  z.object({ id: z.string(), state: z.literal('archived'), reason: z.string().min(1) }),
]);

/** Schema of a guard pack's `manifest.json`. */
export const manifestSchema = z.object({
  format: z.literal(1),
  domain: z.string().min(1),
  description: z.string(),
  /** The fixed time the policy speaks of, when it has one (ISO 8601); test cases default to it. */
  clock: z.string().optional(),
  /** The policy document the references quote, relative to the pack. */
  policyDocument: z.string(),
  /** Reviewed guard code runs in-process; other code runs in a worker that a hang cannot block. */
  reviewed: z.boolean(),
  /** The tool specs, relative to the pack. */
  tools: z.string(),
  guards: z.record(
    z.string(),
    z.object({
      spec: z.string().optional(),
      guard: z.string().optional(),
      policies: z.array(policyEntrySchema),
    }),
  ),
  /** Policies of the document that no tool guard decides, with the reason. */
  general: z.array(z.object({ id: z.string(), name: z.string(), references: z.array(z.string()), reason: z.string() })),
  /**
   * Who approved the pack, when, and the content hash of every file and policy state the approval covered. The pack
   * loads as unreviewed once any of them changes (see `reviewChanges`).
   */
  review: z
    .object({
      by: z.string().min(1),
      at: z.string(),
      hashes: z.record(z.string(), z.string()),
      /** Policies the reviewer approved while they were not enforced. */
      acceptedNotEnforced: z.array(z.string()).default([]),
    })
    .optional(),
  /** For generated policies: hashes of the spec each came from and of the code written, to regenerate only what changed. */
  generated: z
    .record(
      z.string(),
      z.object({
        specHash: z.string(),
        codeHash: z.string(),
        /** Lines of the check that read message text itself instead of the conversation's questions: review them. */
        readsText: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  /**
   * Set by `compile generate --validate <runs>`: each enforced policy's denial rate over recorded runs replayed in
   * shadow mode. `flagged` marks a policy that refused more than `threshold` of its tool's calls: most recorded calls
   * are the agent doing its job, so such a policy is likely stricter than the policy text; review it.
   */
  validation: z
    .object({
      runs: z.number().int(),
      threshold: z.number(),
      policies: z.record(
        z.string(),
        z.object({
          tool: z.string(),
          calls: z.number().int(),
          denied: z.number().int(),
          denialRate: z.number(),
          flagged: z.boolean(),
          /** How often the policy's answer came up: yes (no finding), no (denied) and unsure (asked). */
          answers: z.object({ yes: z.number().int(), no: z.number().int(), unsure: z.number().int() }).optional(),
        }),
      ),
    })
    .optional(),
});

/** A guard pack's manifest. */
export type Manifest = z.output<typeof manifestSchema>;

/** A manifest's record of the pack's approval. */
export type ReviewRecord = NonNullable<Manifest['review']>;

/** A manifest's entry for one policy: enforced (and with what effect), not enforced, or archived, with the reason. */
export type PolicyEntry = z.output<typeof policyEntrySchema>;
