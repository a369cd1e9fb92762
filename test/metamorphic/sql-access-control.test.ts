/**
 * Metamorphic suite of the SQL access control program: every EHRSQL eICU question for every EICU-AC role, and the
 * pack's demonstrations, with the query spelt otherwise; no spelling may be decided less strictly. Below size 30 a
 * share of the questions is taken: every (30 / size)th.
 */
import { readFile } from 'node:fs/promises';
import { describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createToolbox, type GuardDecision, loadProgramPack } from 'agentguard';
import { draw, size } from './sampling.ts';
import { sqlVariants } from './sql-variants.ts';
import { type Decided, reportSurvey, Survey } from './survey.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** A program's decision as a runtime decision: a denial, an allow, or a fault when its reads could not be told. */
function decidedBy(decision: GuardDecision | { abstain: string }): Decided {
  if ('abstain' in decision) return { decision: 'deny', faults: [`abstained: ${decision.abstain}`] };
  return {
    decision: decision.label === 0 ? 'allow' : 'deny',
    faults: decision.reasons.flatMap((reason) => (reason.kind === 'undetermined' ? [reason.message] : [])),
  };
}

describe(`metamorphic: sql-access-control (${size} variants of each kind per input)`, async () => {
  const pack = await loadProgramPack(root('packs/sql-access-control'));
  const toolbox = createToolbox();
  const survey = new Survey('sql-access-control');
  const scenario = JSON.parse(await readFile(root('data/eicu-ac/eicu-ac.json'), 'utf8')) as {
    schema: Record<string, string[]>;
    roles: Record<string, Record<string, string[]>>;
    questions: { id: string; query: string }[];
  };

  async function vary(name: string, input: unknown, query: string, names: ReadonlySet<string>): Promise<void> {
    survey.inputs++;
    const original = decidedBy(await pack.decide({ input, output: query }, toolbox));
    for (const [kind, variant] of Object.entries(sqlVariants(names))) {
      for (const spelt of draw(variant(query), `${name} ${kind}`)) {
        survey.record(kind, original, decidedBy(await pack.decide({ input, output: spelt }, toolbox)), () => {
          return `${name}: ${JSON.stringify(query)} as ${JSON.stringify(spelt)}`;
        });
      }
    }
  }

  const eicuNames = new Set(Object.entries(scenario.schema).flatMap(([table, columns]) => [table, ...columns]));
  // Every question from size 30 on; below, every (30 / size)th, so that the size `npm test` runs stays quick.
  const stride = size === 0 ? 1 : Math.max(1, Math.ceil(30 / size));
  for (const [role, permissions] of Object.entries(scenario.roles)) {
    for (const question of scenario.questions.filter((_question, index) => index % stride === 0)) {
      await vary(
        `eicu ${question.id} ${role}`,
        { permissions, schema: scenario.schema, dialect: 'sqlite' },
        question.query,
        eicuNames,
      );
    }
  }
  for (const [index, example] of pack.examples.entries()) {
    const { schema } = example.input as { schema?: unknown };
    const names = new Set(
      typeof schema === 'string' ? [...schema.matchAll(/[a-z_][a-z0-9_]*/g)].map(([word]) => word) : [],
    );
    if (typeof example.output === 'string') await vary(`demonstration ${index}`, example.input, example.output, names);
  }
  reportSurvey(survey);
});
