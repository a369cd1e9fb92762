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
import { environmentFor } from '../replay/environment.ts';
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

/** `agentguard check`. */
export async function checkCommand(options: {
  pack: string;
  call: string;
  conversation?: string;
  now?: string;
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
  const now = options.now === undefined ? undefined : new Date(options.now);
  if (now !== undefined && Number.isNaN(now.getTime())) {
    throw new InputError('--now', [{ location: '--now', message: `expected a date and time, got \`${options.now}\`` }]);
  }
  const fresh = await environmentFor(pack.manifest.domain);
  const environment = fresh?.();
  const audit = options.audit === undefined ? undefined : await openAuditLog(options.audit);
  const runtime = new GuardRuntime([pack], {
    ...(options.unknownTool === undefined ? {} : { unknownTool: options.unknownTool }),
    ...(audit === undefined ? {} : { audit }),
  });
  const verdict = await runtime.check(call, {
    conversation,
    invoker: environment?.invoker ?? noLookups,
    now: now ?? environment?.now ?? new Date(),
  });
  await runtime.close();
  await audit?.close();
  process.stdout.write(`${JSON.stringify(verdictReport(verdict), null, 2)}\n`);
  process.exitCode = exitCodes[verdict.decision];
}
