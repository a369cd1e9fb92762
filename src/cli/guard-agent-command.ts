import { AgentGuardError } from '../errors.ts';
import { writeAtomically } from '../files.ts';
import { evaluateEicuAc, readEicuAc } from '../guard-agent/eval/eicu-ac.ts';
import { evaluateSpiderAc, readSpiderAc } from '../guard-agent/eval/spider-ac.ts';
import { loadProgramPack, requireProgram } from '../guard-agent/program-pack.ts';
import { loadPostgresParser } from '../guard-agent/toolbox/postgres-parser.ts';
import { createToolbox } from '../guard-agent/toolbox/toolbox.ts';
import { packagePath } from '../package-root.ts';

const defaultPack = packagePath('packs/sql-access-control');
const figure = (value: number) => value.toFixed(4);

/** `agentguard eval guard-agent`: a compiled guard program on an access-control dataset. */
export async function evalGuardAgentCommand(options: {
  dataset: string;
  data: string;
  out: string;
  limit?: string;
  compiled?: string;
  json?: boolean;
}) {
  if (options.dataset !== 'spider-ac' && options.dataset !== 'eicu-ac') {
    throw new AgentGuardError('invalid_input', `unknown dataset \`${options.dataset}\`: use spider-ac or eicu-ac`);
  }
  await loadPostgresParser();
  const pack = await loadProgramPack(options.compiled ?? defaultPack);
  if (options.dataset === 'eicu-ac') {
    const { lines, summary } = evaluateEicuAc(await readEicuAc(options.data), requireProgram(pack), createToolbox());
    await writeAtomically(options.out, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const table = Object.entries(summary).map(
      ([role, counts]) =>
        `${role.padEnd(24)}${String(counts.permit).padStart(8)}${String(counts.deny).padStart(8)}${String(counts.undetermined).padStart(14)}`,
    );
    const header = `${'role'.padEnd(24)}${'permit'.padStart(8)}${'deny'.padStart(8)}${'undetermined'.padStart(14)}`;
    process.stdout.write(options.json ? `${JSON.stringify(summary, null, 2)}\n` : `${[header, ...table].join('\n')}\n`);
    return;
  }
  const rows = await readSpiderAc(options.data, options.limit === undefined ? undefined : Number(options.limit));
  const evaluation = evaluateSpiderAc(rows, requireProgram(pack), createToolbox());
  await writeAtomically(options.out, evaluation.lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  const { lines: _lines, ...summary } = evaluation;
  if (options.json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const row = (name: string, metrics: typeof evaluation.overall) =>
    `${name.padEnd(10)}${String(metrics.rows).padStart(7)}${figure(metrics.lpa).padStart(9)}${figure(metrics.lpp).padStart(9)}${figure(metrics.lpr).padStart(9)}${figure(metrics.cca).padStart(9)}`;
  const report = [
    `${'role'.padEnd(10)}${'rows'.padStart(7)}${'LPA'.padStart(9)}${'LPP'.padStart(9)}${'LPR'.padStart(9)}${'CCA'.padStart(9)}`,
    ...Object.entries(evaluation.perRole).map(([role, metrics]) => row(role, metrics)),
    row('overall', evaluation.overall),
    `decision time per row: p50 ${evaluation.durationUs.p50} µs, p99 ${evaluation.durationUs.p99} µs`,
    `malformed rows: ${evaluation.malformed.length}${evaluation.malformed
      .slice(0, 10)
      .map((problem) => `\n  ${problem}`)
      .join('')}`,
  ];
  process.stdout.write(`${report.join('\n')}\n`);
}
