import { z } from 'zod';

const policySchema = z.object({
  id: z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/, 'expected a dotted id such as `cancel.not_flown`'),
  name: z.string().min(1),
  description: z.string().min(1),
  references: z.array(z.string().min(1)).min(1),
  compliance_examples: z.array(z.string()),
  violation_examples: z.array(z.string()),
  remedy: z.string().optional(),
  /** What a violation does: `deny` (the default) or `ask`, where a person must settle the call with the user. */
  effect: z.enum(['deny', 'ask']).optional(),
  /**
   * What a check decides when a conversation fact it needs is unsure (the finding carries the question to ask): `ask`
   * (the default) has a person put the question to the user; `deny` is for a policy that says a missing fact must
   * deny, such as an explicit confirmation: the call is refused, with the feedback, the remedy and the question for
   * the agent to ask.
   */
  unsure: z.enum(['ask', 'deny']).optional(),
  /**
   * Set when the policy cannot be decided before the call (the mapper's enforceability review, or a reference that
   * is not in the document): the reason. An archived policy is kept for review, but neither scored nor generated.
   */
  archived: z.string().min(1).optional(),
});

/** Schema of a tool-policy spec: the atomic policies that apply to one tool. */
export const toolPolicySpecSchema = z.object({
  tool: z.string().min(1),
  policies: z.array(policySchema),
});

/** One atomic policy: what it says, the verbatim sentences it comes from, and its examples. */
export type PolicySpec = z.output<typeof policySchema>;

/**
 * The tool-policy spec of one tool.
 *
 * @example
 * ```ts
 * const spec: ToolPolicySpec = { tool: 'cancel_reservation', policies: [] };
 * ```
 */
export type ToolPolicySpec = z.output<typeof toolPolicySpecSchema>;

/** Schema of IBM ToolGuard's tool-policy mapping JSON (one file per tool). */
export const toolGuardSpecSchema = z.object({
  policies: z.array(
    z
      .object({
        policy_name: z.string().min(1),
        description: z.string(),
        references: z.array(z.string()),
        violating_examples: z.array(z.string()).default([]),
        compliance_examples: z.array(z.string()).default([]),
        skip: z.boolean().optional(),
      })
      .loose(),
  ),
  archive: z.array(z.unknown()).optional(),
});

/** IBM ToolGuard's tool-policy mapping of one tool. */
export type ToolGuardSpec = z.output<typeof toolGuardSpecSchema>;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/**
 * Converts ToolGuard's JSON to our spec. Ids are `<tool>.<slug of the policy name>`; ToolGuard's `skip` flag (the
 * policy cannot be checked before the call) is returned as `skipped` so the caller can archive those policies.
 *
 * @example
 * ```ts
 * const { spec, skipped } = fromToolGuardSpec('cancel_reservation', toolGuardJson);
 * ```
 */
export function fromToolGuardSpec(tool: string, source: ToolGuardSpec): { spec: ToolPolicySpec; skipped: string[] } {
  const skipped: string[] = [];
  const policies = source.policies
    .filter((policy) => policy.references.length > 0)
    .map((policy): PolicySpec => {
      const id = `${slug(tool)}.${slug(policy.policy_name)}`;
      if (policy.skip) skipped.push(id);
      return {
        id,
        name: policy.policy_name,
        description: policy.description,
        references: policy.references,
        compliance_examples: policy.compliance_examples,
        violation_examples: policy.violating_examples,
      };
    });
  return { spec: { tool, policies }, skipped };
}

/**
 * Converts our spec to ToolGuard's JSON.
 *
 * @example
 * ```ts
 * const json = toToolGuardSpec(spec, new Set(['cancel_reservation.obtain_reason']));
 * ```
 */
export function toToolGuardSpec(spec: ToolPolicySpec, skipped: ReadonlySet<string> = new Set()): ToolGuardSpec {
  return {
    policies: spec.policies.map((policy) => ({
      policy_name: policy.name,
      description: policy.description,
      references: policy.references,
      violating_examples: policy.violation_examples,
      compliance_examples: policy.compliance_examples,
      ...(skipped.has(policy.id) || policy.archived !== undefined ? { skip: true } : {}),
    })),
    archive: [],
  };
}
