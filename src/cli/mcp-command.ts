import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openAuditLog } from '../audit/audit-log.ts';
import { AgentGuardError } from '../errors.ts';
import { GuardProxy } from '../mcp/guard-proxy.ts';
import { listenStreamableHttp, type ProxyListener } from '../mcp/http-listener.ts';
import type { UpstreamTarget } from '../mcp/upstream.ts';
import type { Decision } from '../model/verdict.ts';

/** Options of `agentguard mcp`. */
export interface McpCommandOptions {
  pack: string[];
  upstream?: string;
  listen?: string;
  host: string;
  unknownTool?: Decision;
  unknownReadOnlyTool?: Decision;
  askTimeout: string;
  sameDisk?: boolean;
  audit?: string;
}

const log = (line: string) => process.stderr.write(`agentguard mcp: ${line}\n`);

function upstreamTarget(command: readonly string[], options: McpCommandOptions): UpstreamTarget {
  const [program, ...args] = command;
  if (options.upstream !== undefined && program !== undefined) {
    throw new AgentGuardError(
      'invalid_input',
      'give the upstream either as `--upstream <url>` or as `-- <command>`, not both',
    );
  }
  if (options.upstream !== undefined) return { url: options.upstream };
  if (program === undefined) {
    throw new AgentGuardError('invalid_input', 'no upstream: give `--upstream <url>` or `-- <command> [args…]`');
  }
  return { command: program, args };
}

function portOf(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new AgentGuardError('invalid_input', `--listen: \`${text}\` is not a port number (0 to 65535)`);
  }
  return port;
}

/**
 * `agentguard mcp`: a guard proxy in front of an MCP server, served over stdio or, with `--listen`, Streamable HTTP.
 * Runs until the client goes away or a signal arrives (exit 0), or the upstream closes (exit 1, with the reason).
 */
export async function mcpCommand(command: string[], options: McpCommandOptions): Promise<void> {
  const target = upstreamTarget(command, options);
  const port = options.listen === undefined ? undefined : portOf(options.listen);
  const askTimeoutMs = Number(options.askTimeout) * 1000;
  if (!(askTimeoutMs > 0)) {
    throw new AgentGuardError('invalid_input', `--ask-timeout: \`${options.askTimeout}\` is not a positive number`);
  }
  const audit = options.audit === undefined ? undefined : await openAuditLog(options.audit);
  const proxy = await GuardProxy.start(target, {
    packs: options.pack,
    askTimeoutMs,
    sameDisk: options.sameDisk === true,
    runtime: {
      ...(options.unknownTool === undefined ? {} : { unknownTool: options.unknownTool }),
      ...(options.unknownReadOnlyTool === undefined ? {} : { unknownReadOnlyTool: options.unknownReadOnlyTool }),
      ...(audit === undefined ? {} : { audit }),
    },
  });
  let listener: ProxyListener | undefined;
  let finishing = false;
  const finish = async (code: number) => {
    if (finishing) return;
    finishing = true;
    await listener?.close();
    await proxy.close();
    await audit?.close();
    process.exit(code);
  };
  process.once('SIGINT', () => void finish(0));
  process.once('SIGTERM', () => void finish(0));
  if (port === undefined) {
    process.stdin.once('end', () => void finish(0));
    await proxy.createServer().connect(new StdioServerTransport());
  } else {
    listener = await listenStreamableHttp(proxy, { host: options.host, port });
    log(`listening on ${listener.url}`);
  }
  const reason = await proxy.upstreamClosed;
  if (finishing) return;
  log(`error: ${reason}; stopping`);
  await finish(1);
}
