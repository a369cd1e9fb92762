import type { z } from 'zod';

/**
 * A versioned prompt: the step it serves, a system prompt, how to render its input, and the schema its answer must
 * match. Changing a prompt's text means raising its version, which changes every request it makes (and so which
 * recordings still answer it).
 */
export interface PromptTemplate<Input, Schema extends z.ZodType> {
  /** The step, e.g. `generate.implementation`. */
  id: string;
  version: number;
  system: string;
  render(input: Input): string;
  schema: Schema;
  /**
   * What one request is about (the tool it maps, the policy module it writes): kept beside the answer in a recording,
   * so that the recording can be re-keyed onto a later prompt by step and subject.
   */
  subject?(input: Input): string;
}

/** The name a template's requests carry: `<id>@v<version>`. */
export const stepName = (template: { id: string; version: number }) => `${template.id}@v${template.version}`;

/** Renders a value as a fenced JSON block for a prompt. */
export const jsonBlock = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/** Renders source code as a fenced TypeScript block for a prompt. */
export const codeBlock = (source: string) => `\`\`\`ts\n${source.trimEnd()}\n\`\`\``;
