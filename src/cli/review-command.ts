import { spawn } from 'node:child_process';
import { AgentGuardError } from '../errors.ts';
import { loadPack } from '../pack/load-pack.ts';
import { auditDecisionSource } from '../review/audit-decision-source.ts';
import { type DecisionSource, replayDecisionSource } from '../review/decision-source.ts';
import { startReviewServer } from '../review/review-server.ts';

function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => process.stderr.write(`cannot open a browser (${command}): open ${url} yourself\n`));
  child.unref();
}

/** `agentguard review <pack>`: serves the review page until interrupted. */
export async function reviewCommand(
  pack: string,
  options: { replay?: string; trajectories?: string; audit?: string; host: string; port: string; open: boolean },
): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AgentGuardError(
      'invalid_input',
      `--port: expected a port number from 0 to 65535, got \`${options.port}\``,
    );
  }
  await loadPack(pack, { importGuards: false });
  if (options.replay !== undefined && options.audit !== undefined) {
    throw new AgentGuardError('invalid_input', 'give the decisions either as `--replay <file>` or as `--audit <log>`');
  }
  if (options.trajectories !== undefined && options.replay === undefined) {
    throw new AgentGuardError(
      'invalid_input',
      '`--trajectories` names the runs of a replay: give it with `--replay <file>`',
    );
  }
  const decisions: DecisionSource | undefined =
    options.replay !== undefined
      ? replayDecisionSource(
          options.replay,
          options.trajectories === undefined ? {} : { trajectories: options.trajectories },
        )
      : options.audit !== undefined
        ? auditDecisionSource(options.audit)
        : undefined;
  const records = await decisions?.read();
  const server = await startReviewServer({
    pack,
    host: options.host,
    port,
    ...(decisions === undefined ? {} : { decisions }),
  });
  process.stdout.write(
    `reviewing ${pack}${records === undefined ? '' : ` with ${records.length} decisions from ${decisions?.label}`} at ${server.url} (Ctrl+C to stop)\n`,
  );
  if (!/^(127\.|::1$|localhost$)/.test(options.host)) {
    process.stderr.write(`warning: the page is reachable beyond this machine (${options.host}), approval included\n`);
  }
  if (options.open) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
}
