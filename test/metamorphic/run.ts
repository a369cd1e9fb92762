/**
 * Runs the metamorphic suite at a chosen size and seed, the spec reporter printing what each pack survived:
 * `npm run test:metamorphic -- --size 50 --seed 7` (defaults: the size `npm test` runs, and seed 16).
 */

import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { size: { type: 'string' }, seed: { type: 'string' } } });
if (values.size !== undefined) process.env.METAMORPHIC_SIZE = values.size;
if (values.seed !== undefined) process.env.METAMORPHIC_SEED = values.seed;

run({
  cwd: fileURLToPath(new URL('../..', import.meta.url)),
  globPatterns: ['test/metamorphic/*.test.ts'],
  execArgv: ['--conditions=agentguard-source'],
  concurrency: true,
})
  .on('test:fail', () => {
    process.exitCode = 1;
  })
  .compose(spec)
  .pipe(process.stdout);
