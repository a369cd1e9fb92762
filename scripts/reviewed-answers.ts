/**
 * A scripted model that answers every compiler step from a reviewed pack, for the scripts that record a reviewed
 * pack's build: the mapper's steps from its spec (archived policies archived again, with their reason), the
 * generator's from its guard code and test cases. Its recording is labelled as written by people, not a model output.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { policyFile } from '../src/compiler/pack-layout.ts';
import type { LanguageModel, ModelRequest } from '../src/llm/language-model.ts';
import type { PolicySpec, ToolPolicySpec } from '../src/pack/policy-spec.ts';
import { reviewedCaseAnswers } from './reviewed-cases.ts';

/** What the scripted model answers from. */
export interface ReviewedPack {
  /** The pack folder: guard code under `guards/`, test cases under `tests/`. */
  packDir: string;
  /** The reviewed spec per tool. */
  specs: ReadonlyMap<string, ToolPolicySpec>;
  /** The lookups a check makes: those whose pattern its code matches (a lookup's name, or a helper that calls it). */
  lookupNames: readonly [RegExp, string][];
  /** What the recording's source says the answers are. */
  source: string;
}

/** The tool a request is about: the first `"name"` of its prompt, which names the tool before anything else. */
const toolOf = (text: string) => /"name": "(\w+)"/.exec(text)?.[1] ?? '';

const draft = (policy: PolicySpec) => ({
  name: policy.name,
  description: policy.description,
  references: policy.references,
  ...(policy.effect === undefined ? {} : { effect: policy.effect }),
  ...(policy.remedy === undefined ? {} : { remedy: policy.remedy }),
});

/** Answers a compiler request from the reviewed pack. */
async function answer(pack: ReviewedPack, request: ModelRequest): Promise<unknown> {
  const text = request.messages[0]?.content ?? '';
  const step = request.step.replace(/@v\d+$/, '');
  const tool = toolOf(text);
  const policies = () => {
    const spec = pack.specs.get(tool);
    if (spec === undefined) throw new Error(`the pack has no spec for \`${tool}\``);
    return spec.policies;
  };
  const live = () => policies().filter((policy) => policy.archived === undefined);
  switch (step) {
    case 'map.create_policies':
    case 'map.split_merge':
      return { policies: policies().map(draft) };
    case 'map.add_policies':
      return { policies: [] };
    case 'map.review_relevance':
      return { votes: policies().map((_, index) => ({ index, relevant: true, reason: 'it names this tool' })) };
    case 'map.review_enforceability':
      return {
        reviews: policies().map((policy, index) =>
          policy.archived === undefined
            ? { index, enforceable: true, reason: 'decided from the arguments, the conversation and the lookups' }
            : { index, enforceable: false, reason: policy.archived },
        ),
      };
    case 'map.create_examples':
      // The reviewed spec has every policy's examples: the follow-up for policies short of examples adds none.
      if (text.includes('have fewer than')) return { examples: [] };
      return {
        examples: live().map((policy, index) => ({
          index,
          compliance_examples: policy.compliance_examples,
          violation_examples: policy.violation_examples,
        })),
      };
  }
  const module = /Write the module `([^`]+)`/.exec(text)?.[1];
  if (module !== undefined) return { code: await readFile(join(pack.packDir, module), 'utf8') };
  const policy = /"id": "([^"]+)"/.exec(text)?.[1] ?? '';
  if (step === 'generate.lookups') {
    const code = await readFile(join(pack.packDir, policyFile(tool, policy)), 'utf8');
    return {
      lookups: [...new Set(pack.lookupNames.filter(([pattern]) => pattern.test(code)).map(([, lookup]) => lookup))],
      reason: 'the lookups the reviewed check makes',
    };
  }
  if (step === 'generate.test_cases') return reviewedCaseAnswers(text, pack.packDir, tool, policy);
  throw new Error(`no reviewed answer for step ${request.step}`);
}

/** The scripted model answering from `pack`. */
export function reviewedModel(pack: ReviewedPack): LanguageModel {
  return {
    id: pack.source,
    complete: async (request) => ({
      text: JSON.stringify(await answer(pack, request)),
      usage: { inputTokens: 0, outputTokens: 0 },
    }),
  };
}
