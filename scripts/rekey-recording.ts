/**
 * Re-keys a compiler-evaluation recording onto prompts changed since it was made: the evaluation is run again, and
 * each request is answered with the next answer the recording holds for the same step, in recorded order; the new
 * recording says so in its `source`, with the note given. Use it only where the change left the sequence of
 * requests as it was (a declaration added to a prompt, a reworded instruction), and check that the evaluation's
 * mapping and generation figures come out as before: an answer given to another request would change them. Steps
 * are matched by name whatever their version, so a prompt whose version was raised is answered too.
 *
 * A recording made with several requests answered side by side (`--concurrency`) has no reliable order: `--by-policy`
 * answers every request the recording holds by its key, and a generation request it does not hold (an implementation
 * or a repair whose prompt changed) with the next answer of the same step written for the same policy module (the
 * request names the module, the answer's code is that policy's check).
 *
 * A recording made before the compiler's domain step is re-keyed with `--draft-domain` (and replayed with it).
 *
 * `node scripts/rekey-recording.ts --recording <file> --note "<what changed>" [--by-policy] [--draft-domain] [--map <tools>] [--generate <tools>]`
 */
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type Cassette, inRecordedOrder, ReplayModel, readCassette, requestKey } from '../src/llm/cassette.ts';
import type { LanguageModel, ModelResponse } from '../src/llm/language-model.ts';
import { runCompilerEvaluation } from './eval-compiler.ts';

const unversioned = (step: string) => step.replace(/@v\d+$/, '');

/** The policy module a text names first (`guards/<tool>/<policy>.ts`): a generation request names the one it is for. */
const moduleNamed = (text: string) => /`(guards\/(?!lib\/)[\w-]+\/\w+\.ts)`/.exec(text)?.[1];

/** The policy module an answer's code is the check of: its first comment names the policy `<tool>.<policy>`. */
function moduleAnswered(text: string): string | undefined {
  const code = (JSON.parse(text) as { code?: unknown }).code;
  const id = typeof code === 'string' ? /^\/\*\* `([\w-]+)\.(\w+)`/.exec(code) : null;
  return id === null ? undefined : `guards/${id[1]}/${id[2]}.ts`;
}

/** Answers by request key, and a generation request the recording lacks by step and policy module. */
function byPolicy(cassette: Cassette, id: string): LanguageModel {
  const byKey = new ReplayModel(cassette);
  const keys = new Set(cassette.entries.map((entry) => entry.key));
  const byModule = new Map<string, ModelResponse[]>();
  for (const { step, text, usage } of cassette.entries) {
    const module = step.startsWith('generate.') ? moduleAnswered(text) : undefined;
    if (module === undefined) continue;
    const slot = `${unversioned(step)} ${module}`;
    const { inputTokens, outputTokens, estimated } = usage;
    const answer = { text, usage: { inputTokens, outputTokens, ...(estimated === true ? { estimated } : {}) } };
    byModule.set(slot, [...(byModule.get(slot) ?? []), answer]);
  }
  return {
    id,
    complete: async (request) => {
      if (keys.has(requestKey(request))) return byKey.complete(request);
      const module = moduleNamed(request.messages.map((message) => message.content).join('\n'));
      const answer = byModule.get(`${unversioned(request.step)} ${module}`)?.shift();
      if (answer === undefined) throw new Error(`the recording has no answer for \`${request.step}\` of \`${module}\``);
      return answer;
    },
  };
}

const { values } = parseArgs({
  options: {
    recording: { type: 'string' },
    note: { type: 'string' },
    map: { type: 'string' },
    generate: { type: 'string' },
    'by-policy': { type: 'boolean', default: false },
    'draft-domain': { type: 'boolean', default: false },
  },
});
if (values.recording === undefined || values.note === undefined) {
  throw new Error(
    'usage: node scripts/rekey-recording.ts --recording <file> --note "<what changed>" [--by-policy] [--draft-domain] [--map …] [--generate …]',
  );
}
const cassette = await readCassette(values.recording);
// Written anew: the evaluation's `--record` would otherwise resume the old file.
await rm(values.recording);
const inOrder = values['by-policy']
  ? byPolicy(cassette, `${cassette.source}; re-keyed onto later prompts by step and policy module (${values.note})`)
  : inRecordedOrder(cassette, `${cassette.source}; re-keyed onto later prompts in recorded order (${values.note})`);
const report = await runCompilerEvaluation(
  [
    '--record',
    values.recording,
    ...(values.map === undefined ? [] : ['--map', values.map]),
    ...(values.generate === undefined ? [] : ['--generate', values.generate]),
    ...(values['draft-domain'] ? ['--draft-domain'] : []),
  ],
  inOrder,
);
process.stdout.write(`${report}\n\nre-keyed ${values.recording}\n`);
