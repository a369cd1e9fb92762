/**
 * Writes `packs/tau-airline.recording.json`: a recording of the generator's model steps for the airline pack whose
 * answers are the pack's reviewed guard code and test cases, written by people. It is labelled as such; it is not a
 * model's output. Run after reviewing a change to a guard or a test case: `node scripts/record-tau-airline.ts`.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policyFile } from '../src/compiler/pack-layout.ts';
import { RecordingModel } from '../src/llm/cassette.ts';
import type { LanguageModel, ModelRequest } from '../src/llm/language-model.ts';
import { reviewedCaseAnswers } from './reviewed-cases.ts';
import { buildTauAirline, packDir, recordingFile } from './tau-airline-build.ts';

const field = (text: string, name: string) => new RegExp(`"${name}": "([^"]+)"`).exec(text)?.[1] ?? '';

/** Lookups a reviewed check makes, read from the helpers it calls. */
const lookupNames: [RegExp, string][] = [
  [/findUser|paidBagsProblem|bases\(|Terms\(/, 'get_user_details'],
  [/findReservation|ownerNotObtained|bases\(|flightChangeTerms|baggageTerms/, 'get_reservation_details'],
  [/findFlightOnDate|resolveLegs|bases\(|flightChangeTerms/, 'get_flight_on_date_details'],
];

/** Answers a generator request from the committed pack: the reviewed code and test cases. */
async function answer(request: ModelRequest): Promise<string> {
  const text = request.messages[0]?.content ?? '';
  const module = /Write the module `([^`]+)`/.exec(text)?.[1];
  if (module !== undefined) return JSON.stringify({ code: await readFile(join(packDir, module), 'utf8') });
  const tool = /"name": "(\w+)"/.exec(text)?.[1] ?? '';
  const policy = field(text, 'id');
  const code = await readFile(join(packDir, policyFile(tool, policy)), 'utf8');
  if (request.step.startsWith('generate.lookups')) {
    const lookups = lookupNames.filter(([pattern]) => pattern.test(code)).map(([, name]) => name);
    return JSON.stringify({ lookups, reason: 'the lookups the reviewed check makes' });
  }
  if (request.step.startsWith('generate.test_cases')) {
    return JSON.stringify(await reviewedCaseAnswers(text, packDir, tool, policy));
  }
  throw new Error(`no reviewed answer for step ${request.step}`);
}

const reviewed: LanguageModel = {
  id: 'reviewed-pack',
  complete: async (request) => ({ text: await answer(request), usage: { inputTokens: 0, outputTokens: 0 } }),
};
const recording = new RecordingModel(
  reviewed,
  'scripted answers: the reviewed guard code and test cases of packs/tau-airline, written by people, not a model output',
);
const reports = await buildTauAirline(await mkdtemp(join(tmpdir(), 'tau-airline-record-')), recording);
await recording.save(recordingFile);
const failing = reports.filter((report) => report.state === 'not_enforced');
for (const report of failing) console.error(`not enforced: ${report.policy}: ${report.reason}`);
console.log(`recorded the answers for ${reports.length} policies to ${recordingFile}`);
process.exitCode = failing.length > 0 ? 1 : 0;
