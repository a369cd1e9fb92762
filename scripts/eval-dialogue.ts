/**
 * Measures the conversation's questions on the labelled corpus `data/dialogue/facts.json`: `npm run eval:dialogue`
 * prints, per question, the precision and recall of yes and of no, the unsure rate, and the yeses read where the
 * label says no (fail-open). Exits 1 when there is any.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { domain as airline } from '../packs/tau-airline/guards/lib/domain-description.ts';
import { dialogueCorpusSchema, evaluateDialogue, formatDialogueEvaluation } from '../src/eval/dialogue-evaluation.ts';
import { readTrajectories } from '../src/replay/trajectories.ts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const corpus = dialogueCorpusSchema.parse(JSON.parse(await readFile(root('data/dialogue/facts.json'), 'utf8')));
const runs = await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json'));
const evaluation = evaluateDialogue(corpus, new Map(runs.map((run) => [run.id, run.conversation])), { airline });
console.log(formatDialogueEvaluation(evaluation));
process.exitCode = evaluation.pooled.failOpen.length === 0 ? 0 : 1;
