import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { openAuditLog } from '../audit/audit-log.ts';
import { InputError } from '../errors.ts';
import { Conversation } from '../model/conversation.ts';
import { fromOpenAIChat, parseToolArguments } from '../model/openai-chat.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Decision } from '../model/verdict.ts';
import { verdictReport } from '../model/verdict-report.ts';
import { loadPack } from '../pack/load-pack.ts';
import { lookupsSource } from '../replay/lookups-source.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { noLookups } from '../service/lookups.ts';

const plainCallSchema = z.object({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  id: z.string().optional(),
});
const openAICallSchema = z
  .object({ id: z.string(), function: z.object({ name: z.string().min(1), arguments: z.string() }) })
  .loose();

/** Reads a call file: `{name, arguments, id?}` or an OpenAI tool call (`{id, function: {name, arguments}}`). */
export async function readCall(file: string): Promise<ToolCall> {
  const value = parseJsonText(await readFile(file, 'utf8'), file);
  if (typeof value === 'object' && value !== null && 'function' in value) {
    const call = parseInput(openAICallSchema, value, file);
    return {
      id: call.id,
      name: call.function.name,
      arguments: parseToolArguments(call.function.arguments, file, '$.function.arguments'),
    };
  }
  const call = parseInput(plainCallSchema, value, file);
  return { id: call.id ?? 'call', name: call.name, arguments: call.arguments };
}

const exitCodes: Record<Decision, number> = { allow: 0, deny: 2, ask: 3 };

/** Time limit of one lookup over HTTP, in milliseconds. */
const lookupTimeoutMs = 10_000;

/**
 * Reads `--now`: an ISO 8601 date and time with an offset (`Z` or `±HH:MM`); one without says how to add it, as a
 * clock read in this machine's zone would silently differ from the policy's.
 */
function parseClock(text: string, option = '--now'): Date {
  const time = new Date(text);
  if (!/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text) || Number.isNaN(time.getTime())) {
    const hint = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)
      ? `: add the offset, e.g. \`${text}Z\` or \`${text}-05:00\``
      : ', e.g. `2024-05-15T15:00:00-05:00`';
    throw new InputError(option, [
      { location: option, message: `expected an ISO 8601 date and time with an offset, got \`${text}\`${hint}` },
    ]);
  }
  return time;
}

/** `agentguard check`. */
export async function checkCommand(options: {
  pack: string;
  call: string;
  conversation?: string;
  now?: string;
  lookups?: string;
  unknownTool?: Decision;
  audit?: string;
}): Promise<void> {
  const pack = await loadPack(options.pack);
  const call = await readCall(options.call);
  const conversation =
    options.conversation === undefined
      ? new Conversation([])
      : fromOpenAIChat(
          parseJsonText(await readFile(options.conversation, 'utf8'), options.conversation),
          options.conversation,
        );
  const now = options.now === undefined ? undefined : parseClock(options.now);
  const environment =
    options.lookups === undefined ? undefined : (await lookupsSource(options.lookups, lookupTimeoutMs))();
  const clock = pack.manifest.clock === undefined ? undefined : new Date(pack.manifest.clock);
  const audit = options.audit === undefined ? undefined : await openAuditLog(options.audit);
  const runtime = new GuardRuntime([pack], {
    ...(options.unknownTool === undefined ? {} : { unknownTool: options.unknownTool }),
    ...(audit === undefined ? {} : { audit }),
  });
  const verdict = await runtime.check(call, {
    conversation,
    invoker: environment?.invoker ?? noLookups,
    now: now ?? environment?.now ?? clock ?? new Date(),
  });
  await runtime.close();
  await audit?.close();
  process.stdout.write(`${JSON.stringify(verdictReport(verdict), null, 2)}\n`);
  process.exitCode = exitCodes[verdict.decision];
}
