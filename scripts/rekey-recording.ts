/**
 * Re-keys a compiler-evaluation recording onto prompts changed since it was made: the evaluation is run again, and
 * each request is answered with the next answer the recording holds for the same step, in recorded order; the new
 * recording says so in its `source`, with the note given. Use it only where the change left the sequence of
 * requests as it was (a declaration added to a prompt, a reworded instruction), and check that the evaluation's
 * mapping and generation figures come out as before: an answer given to another request would change them. Steps
 * are matched by name whatever their version, so a prompt whose version was raised is answered too.
 *
 * A recording made with several requests answered side by side (`--concurrency`) has no reliable order:
 * `--by-subject` answers every request the recording holds by its key, and one it does not hold (its prompt changed)
 * with the next answer of the same step about the same subject, the tool mapped or the policy module written (see
 * `bySubject`).
 *
 * A recording made before the compiler's domain step is re-keyed with `--draft-domain` (and replayed with it).
 *
 * `node scripts/rekey-recording.ts --recording <file> --note "<what changed>" [--by-subject] [--draft-domain] [--map <tools>] [--generate <tools>]`
 */
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bySubject, inRecordedOrder, readCassette } from '../src/llm/cassette.ts';
import { runCompilerEvaluation } from './eval-compiler.ts';

const { values } = parseArgs({
  options: {
    recording: { type: 'string' },
    note: { type: 'string' },
    map: { type: 'string' },
    generate: { type: 'string' },
    'by-subject': { type: 'boolean', default: false },
    'draft-domain': { type: 'boolean', default: false },
  },
});
if (values.recording === undefined || values.note === undefined) {
  throw new Error(
    'usage: node scripts/rekey-recording.ts --recording <file> --note "<what changed>" [--by-subject] [--draft-domain] [--map …] [--generate …]',
  );
}
const cassette = await readCassette(values.recording);
// Written anew: the evaluation's `--record` would otherwise resume the old file.
await rm(values.recording);
const inOrder = values['by-subject']
  ? bySubject(cassette, `${cassette.source}; re-keyed onto later prompts by step and subject (${values.note})`)
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
