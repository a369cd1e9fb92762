import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { AgentGuardError } from '../errors.ts';
import { moduleUrl } from '../package-root.ts';

const cli = fileURLToPath(moduleUrl(import.meta.url, '../cli/main'));

/** An `agentguard serve` process and the URL it listens on. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Sends SIGTERM (the service closes gracefully) and waits for the process to end. */
  stop(): Promise<void>;
}

/**
 * Starts `agentguard serve <args>` in a child process on the current Node and resolves once it listens, with its URL.
 * Rejects with what the process printed when it exits or does not listen within `timeoutMs`.
 *
 * @example
 * ```ts
 * const service = await startServeProcess(['--pack', 'packs/tau-airline', '--port', '0', '--lookups', 'tau-airline']);
 * await fetch(`${service.url}/healthz`);
 * await service.stop();
 * ```
 */
export async function startServeProcess(args: readonly string[], timeoutMs = 30_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new AgentGuardError('step_failed', `agentguard serve did not listen within ${timeoutMs} ms: ${printed}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const found = /listening on (\S+)/.exec(printed)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new AgentGuardError('step_failed', `agentguard serve exited (${code ?? signal}): ${printed}`));
    });
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
