import type { Verdict } from '../model/verdict.ts';

/**
 * The message to hand back to the agent in place of the tool's result when a call is not allowed: which policies,
 * why, the policy text, and what the agent may do instead.
 *
 * @example
 * ```ts
 * if (verdict.decision !== 'allow') toolResult = feedbackFor(verdict);
 * ```
 */
export function feedbackFor(verdict: Verdict): string {
  if (verdict.evaluated === 'allow') return '';
  const lines = [
    verdict.evaluated === 'deny'
      ? `The call to \`${verdict.tool}\` was blocked: it breaks the ${verdict.violations.length === 1 ? 'policy' : 'policies'} below. Do not retry it unchanged.`
      : `The call to \`${verdict.tool}\` needs a person's approval before it can run.`,
  ];
  for (const violation of verdict.violations) {
    lines.push(`- ${violation.name} (\`${violation.policy}\`): ${violation.message}`);
    for (const reference of violation.references) lines.push(`  Policy: "${reference}"`);
    if (violation.remedy !== undefined) lines.push(`  Instead: ${violation.remedy}`);
    if (violation.question !== undefined) lines.push(`  Ask the user: ${violation.question}`);
  }
  return lines.join('\n');
}
