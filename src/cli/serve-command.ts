import { type AuditLog, openAuditLog } from '../audit/audit-log.ts';
import { InputError } from '../errors.ts';
import type { ToolInvoker } from '../model/guard-context.ts';
import type { Decision } from '../model/verdict.ts';
import { loadPack } from '../pack/load-pack.ts';
import { lookupsSource } from '../replay/lookups-source.ts';
import { createService } from '../service/create-service.ts';
import { noLookups } from '../service/lookups.ts';

function positiveInteger(value: string, option: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) {
    throw new InputError(option, [{ location: option, message: `expected a whole number, got \`${value}\`` }]);
  }
  return number;
}

/**
 * The lookups behind `--lookups` (see `lookupsSource`): a URL of the agent's backend, a lookup records file, or
 * `tau-airline` for the shipped airline data, which also brings its clock.
 */
async function lookupsFor(
  target: string | undefined,
  timeoutMs: number,
): Promise<{ invoker: ToolInvoker; clock?: () => Date }> {
  if (target === undefined) return { invoker: noLookups };
  const { invoker, now } = (await lookupsSource(target, timeoutMs))();
  return now === undefined ? { invoker } : { invoker, clock: () => now };
}

/** `agentguard serve`. */
export async function serveCommand(options: {
  pack: string[];
  host: string;
  port: string;
  lookups?: string;
  audit?: string;
  timeoutMs: string;
  bodyLimit: string;
  unknownTool?: Decision;
}): Promise<void> {
  const port = positiveInteger(options.port, '--port');
  const timeoutMs = positiveInteger(options.timeoutMs, '--timeout-ms');
  const packs = await Promise.all(options.pack.map((dir) => loadPack(dir)));
  const lookups = await lookupsFor(options.lookups, timeoutMs);
  const audit: AuditLog | undefined = options.audit === undefined ? undefined : await openAuditLog(options.audit);
  // Refuses to start (naming each policy and why) while an enforced policy's check cannot be loaded.
  const app = await createService({
    packs,
    ...lookups,
    ...(audit === undefined ? {} : { audit }),
    runtime: { timeoutMs, ...(options.unknownTool === undefined ? {} : { unknownTool: options.unknownTool }) },
    bodyLimit: positiveInteger(options.bodyLimit, '--body-limit'),
  }).catch(async (error: unknown) => {
    await audit?.close();
    throw error;
  });
  const address = await app.listen({ host: options.host, port });
  process.stdout.write(`agentguard serve: listening on ${address}\n`);
  const stop = async () => {
    await app.close();
    await audit?.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
