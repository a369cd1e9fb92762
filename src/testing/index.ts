/**
 * Test doubles for guard authors: a lookup invoker answered by functions, and builders for conversations and
 * contexts, so guards can be tested without a live system.
 *
 * @example
 * ```ts
 * import { guardContext, mockInvoker, says } from 'agentguard/testing';
 * const context = guardContext({
 *   conversation: [says.assistant('Cancel ZFA04Y? Please confirm.'), says.user('Yes.')],
 *   invoker: mockInvoker({ get_reservation_details: () => reservation }),
 * });
 * ```
 */
import { describe, it } from 'node:test';
import { Conversation, type Message } from '../model/conversation.ts';

export { type FakeOpenAIServer, startFakeOpenAIServer } from '../llm/fake-openai-server.ts';
export { type ScriptedAnswer, ScriptedModel } from '../llm/scripted-model.ts';
export { type AirlineBackend, airlineBackend } from './airline-backend.ts';

import type { GuardContext, ToolInvoker } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import { loadPack } from '../pack/load-pack.ts';
import { runCases } from '../pack/run-cases.ts';
import { packTestFiles } from '../pack/test-case.ts';

/** A lookup invoker that answers with the given functions and records every call. */
export interface MockInvoker extends ToolInvoker {
  /** The lookups made, in order. */
  readonly calls: { tool: string; args: Record<string, unknown> }[];
}

/**
 * The lookups of a domain by tool name, each with its arguments and result: a pack's generated `Lookups` interface
 * (`types.ts`) fits.
 */
export type LookupSignatures<Lookups> = { [Tool in keyof Lookups]: { args: unknown; result: unknown } };

/** Answers of a mock invoker, one function per tool, typed by a pack's `Lookups` when given. */
export type MockHandlers<Lookups extends LookupSignatures<Lookups>> = {
  [Tool in keyof Lookups]?: (args: Lookups[Tool]['args']) => Lookups[Tool]['result'] | Promise<Lookups[Tool]['result']>;
};

/** Lookups of any tool, untyped: what `mockInvoker` takes when no `Lookups` is given. */
type AnyLookups = Record<string, { args: Record<string, unknown>; result: unknown }>;

/**
 * Makes a lookup invoker from one function per tool. A tool without a function, or a function that throws, makes
 * the lookup fail as a real tool would. Give the pack's `Lookups` (its `types.ts`) to type each function's arguments
 * and result.
 *
 * @example
 * ```ts
 * import type { Lookups } from '../types.ts';
 * const invoker = mockInvoker<Lookups>({ get_contact: ({ email }) => ({ email, internal: true }) });
 * ```
 */
export function mockInvoker<Lookups extends LookupSignatures<Lookups> = AnyLookups>(
  handlers: MockHandlers<Lookups>,
): MockInvoker {
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  return {
    calls,
    async invoke(tool, args) {
      calls.push({ tool, args });
      const handler = Object.hasOwn(handlers, tool)
        ? (handlers as Record<string, ((args: unknown) => unknown) | undefined>)[tool]
        : undefined;
      if (handler === undefined) throw new Error(`no mock answer for \`${tool}\``);
      return handler(args);
    },
  };
}

let toolCallCounter = 0;

/** Message builders for test conversations. */
export const says = {
  system: (text: string): Message => ({ role: 'system', text }),
  user: (text: string): Message => ({ role: 'user', text }),
  assistant: (text: string, toolCalls: ToolCall[] = []): Message => ({ role: 'assistant', text, toolCalls }),
  /** An assistant tool call followed by its result. */
  toolCall: (name: string, args: Record<string, unknown>, result: string): Message[] => {
    const id = `mock_call_${++toolCallCounter}`;
    return [
      { role: 'assistant', text: '', toolCalls: [{ id, name, arguments: args }] },
      { role: 'tool', callId: id, name, content: result },
    ];
  },
};

/** Builds a guard context; by default an empty conversation, no lookups, and the current time. */
export function guardContext(
  options: {
    conversation?: readonly (Message | readonly Message[])[];
    invoker?: ToolInvoker;
    now?: Date | string;
  } = {},
): GuardContext {
  const now = options.now ?? new Date();
  return {
    conversation: new Conversation((options.conversation ?? []).flat()),
    invoker: options.invoker ?? mockInvoker({}),
    now: typeof now === 'string' ? new Date(now) : now,
  };
}

/**
 * Registers one Node test per test case of a pack (`tests/*.cases.json`), each run against its policy in isolation.
 * Generated packs call it from `tests/cases.test.ts`.
 *
 * @example
 * ```ts
 * await packTests('packs/tau-airline');
 * ```
 */
export async function packTests(dir: string): Promise<void> {
  const pack = await loadPack(dir);
  for (const { name, cases } of await packTestFiles(dir)) {
    const results = await runCases(pack, cases);
    describe(name.replace('.cases.json', ''), () => {
      for (const result of results) {
        const { policy, kind, example } = result.testCase;
        it(`${policy} ${kind}: ${example}`, () => {
          if (result.outcome !== 'pass') throw new Error(result.detail);
        });
      }
    });
  }
}
