import { openAuditLog } from '../audit/audit-log.ts';
import { AgentGuardError } from '../errors.ts';
import { writeAtomically } from '../files.ts';
import { loadPack } from '../pack/load-pack.ts';
import { packagePath } from '../package-root.ts';
import { environmentFor } from '../replay/environment.ts';
import { lookupsSource } from '../replay/lookups-source.ts';
import { replay } from '../replay/replay.ts';
import { formatSummary, summarize } from '../replay/report.ts';
import { readTrajectories } from '../replay/trajectories.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';

/** Time limit of one lookup over HTTP, in milliseconds. */
const lookupTimeoutMs = 10_000;

async function run(options: {
  pack: string;
  trajectories: string;
  out?: string;
  json?: boolean;
  audit?: string;
  lookups?: string;
}): Promise<void> {
  const pack = await loadPack(options.pack);
  const fresh =
    options.lookups === undefined
      ? await environmentFor(pack.manifest.domain)
      : await lookupsSource(options.lookups, lookupTimeoutMs);
  if (fresh === undefined) {
    throw new AgentGuardError(
      'invalid_input',
      `agentguard ships no data for the domain \`${pack.manifest.domain}\`: give the lookups the guards call with --lookups <url|file>`,
    );
  }
  const runs = await readTrajectories(options.trajectories);
  const audit = options.audit === undefined ? undefined : await openAuditLog(options.audit);
  const runtime = new GuardRuntime([pack], audit === undefined ? {} : { audit });
  const progress = process.stderr.isTTY
    ? (done: number, total: number) => process.stderr.write(`\rreplaying ${done}/${total} runs`)
    : (done: number, total: number) => {
        if (done % 50 === 0 || done === total) process.stderr.write(`replayed ${done}/${total} runs\n`);
      };
  const clock = pack.manifest.clock === undefined ? new Date() : new Date(pack.manifest.clock);
  const result = await replay(runtime, runs, fresh, progress, clock);
  if (process.stderr.isTTY) process.stderr.write('\n');
  await runtime.close();
  await audit?.close();
  if (options.out !== undefined) {
    await writeAtomically(options.out, result.lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  }
  const writeTools = new Set(
    [...pack.tools.values()].filter((tool) => !tool.spec.readOnly).map((tool) => tool.spec.name),
  );
  const summary = summarize(result, writeTools);
  process.stdout.write(options.json ? `${JSON.stringify(summary, null, 2)}\n` : `${formatSummary(summary, result)}\n`);
}

/** `agentguard replay`. */
export async function replayCommand(options: {
  pack: string;
  trajectories: string;
  out: string;
  json?: boolean;
  audit?: string;
  lookups?: string;
}) {
  await run(options);
}

/** `agentguard start` (`npm start`): the bundled airline pack over the bundled GPT-4o runs. */
export async function startCommand(options: { out?: string }) {
  process.stdout.write(
    'agentguard: replaying 200 recorded GPT-4o runs of tau-bench airline through the reviewed airline guard pack\n\n',
  );
  await run({
    pack: packagePath('packs/tau-airline'),
    trajectories: packagePath('data/tau-airline/trajectories-gpt-4o.json'),
    ...(options.out === undefined ? {} : { out: options.out }),
  });
}
