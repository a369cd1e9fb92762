/**
 * Varies one input of a conversational pack: its arguments' key order, the wording of the last user message (Unicode
 * variants, other wordings of a yes), a yes taken back or made conditional (held to the same message ending in a
 * plain no), a no in its place (other wordings of a no and their Unicode variants), and records each variant's
 * decision against its reference.
 */
import { Conversation, type GuardContext, isAffirmative, type ToolCall, type ToolInvoker } from 'agentguard';
import fc from 'fast-check';
import { withKeysReordered } from './argument-order.ts';
import { draw } from './sampling.ts';
import { type Decided, type Survey, visible } from './survey.ts';
import { assents, conditional, plainRefusal, refusals, retracted, unicodeVariants } from './text-variants.ts';

/** A real call in its context; `policy` names the one policy its decision is read on (a pack's test case). */
export interface Input {
  name: string;
  call: ToolCall;
  conversation: Conversation;
  invoker: ToolInvoker;
  now: Date;
  policy?: string;
}

/** Decides a call in a context, read on the input's policy when it has one. */
export type Decide = (call: ToolCall, context: GuardContext, policy?: string) => Promise<Decided>;

/** Varies one input and records every variant in the survey. */
export async function varyInput(input: Input, decide: Decide, survey: Survey): Promise<void> {
  survey.inputs++;
  const decideWith = (conversation: Conversation, args = input.call.arguments) =>
    decide({ ...input.call, arguments: args }, { conversation, invoker: input.invoker, now: input.now }, input.policy);
  const original = await decideWith(input.conversation);
  const draws = <T>(kind: string, arbitrary: fc.Arbitrary<T>) => draw(arbitrary, `${input.name} ${kind}`);

  for (const args of draws('arguments.order', withKeysReordered(input.call.arguments))) {
    survey.record('arguments.order', original, await decideWith(input.conversation, args), () => {
      return `${input.name}: arguments ${JSON.stringify(args)}`;
    });
  }

  const messages = input.conversation.messages;
  const last = messages.findLastIndex((message) => message.role === 'user');
  const reply = messages[last];
  if (reply?.role !== 'user') return;
  const saying = (text: string) => new Conversation(messages.with(last, { role: 'user', text }));
  const record = async (kind: string, reference: Decided, text: string) => {
    survey.record(kind, reference, await decideWith(saying(text)), () => {
      return `${input.name}: the user's ${visible(reply.text)} as ${visible(text)}`;
    });
  };

  for (const [kind, variant] of Object.entries(unicodeVariants)) {
    for (const text of draws(kind, variant(reply.text))) await record(kind, original, text);
  }
  if (isAffirmative(reply.text)) {
    for (const text of draws('paraphrase.yes', fc.constantFrom(...assents)))
      await record('paraphrase.yes', original, text);
  }

  for (const [kind, variants] of [
    ['retraction', retracted(reply.text)],
    ['condition', conditional(reply.text)],
  ] as const) {
    for (const { text, reference } of draws(kind, variants)) {
      await record(kind, await decideWith(saying(reference)), text);
    }
  }
  const refused = await decideWith(saying(plainRefusal));
  for (const text of draws('paraphrase.no', fc.constantFrom(...refusals))) await record('paraphrase.no', refused, text);
  const refusalVariants = fc.constantFrom(...refusals).chain((refusal) =>
    fc.constantFrom(...Object.keys(unicodeVariants)).chain((kind) =>
      (unicodeVariants[kind] as (text: string) => fc.Arbitrary<string>)(refusal).map((text) => ({
        refusal,
        kind,
        text,
      })),
    ),
  );
  for (const { refusal, kind, text } of draws('unicode of a no', refusalVariants)) {
    await record(`${kind} of a no`, await decideWith(saying(refusal)), text);
  }
}
