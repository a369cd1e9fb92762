import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { AgentGuardError } from '../errors.ts';
import { moduleUrl } from '../package-root.ts';

const cli = fileURLToPath(moduleUrl(import.meta.url, '../cli/main'));

/** An agentguard command serving in a child process, and the URL it listens on. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Sends SIGTERM (the command closes gracefully), waits for the process to end, and gives its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts an agentguard command that serves until stopped (`serve`, `review`, `mcp --listen`) in a child process on
 * the current Node, and resolves once it prints the URL it listens on (the first group of `printed`). Rejects with
 * what the process printed when it exits or does not listen within `timeoutMs`. `cli` is the command's entry: this
 * checkout's by default, or an installed package's.
 *
 * @example
 * ```ts
 * const page = await startServingCli(['review', 'packs/tau-airline', '--no-open'], { printed: /at (http:\S+\/) / });
 * ```
 */
export async function startServingCli(
  args: readonly string[],
  options: { printed: RegExp; cli?: string; cwd?: string; timeoutMs?: number },
): Promise<ServeProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const child = spawn(process.execPath, [options.cli ?? cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const command = `agentguard ${args[0] ?? ''}`;
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new AgentGuardError('step_failed', `${command} did not listen within ${timeoutMs} ms: ${printed}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const found = options.printed.exec(printed)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new AgentGuardError('step_failed', `${command} exited (${code ?? signal}): ${printed}`));
    });
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit') as Promise<[number | null]>;
      child.kill('SIGTERM');
      return (await exited)[0];
    },
  };
}

/**
 * Starts `agentguard serve <args>` (see `startServingCli`) and resolves once it listens, with its URL.
 *
 * @example
 * ```ts
 * const service = await startServeProcess(['--pack', 'packs/tau-airline', '--port', '0', '--lookups', 'tau-airline']);
 * await fetch(`${service.url}/healthz`);
 * await service.stop();
 * ```
 */
export function startServeProcess(args: readonly string[], timeoutMs = 30_000): Promise<ServeProcess> {
  return startServingCli(['serve', ...args], { printed: /listening on (\S+)/, timeoutMs });
}
