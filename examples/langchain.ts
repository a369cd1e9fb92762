// Guard the tools of a LangChain.js agent with the airline pack: the README's snippet. Runs offline: LangChain's
// `fakeModel()` stands in for a real model (such as `'openai:gpt-4.1'`), and the airline held in memory for your
// backend.

import { fileURLToPath } from 'node:url';
import { MemorySaver } from '@langchain/langgraph';
import { GuardRuntime, loadPack } from 'agentguard';
import { guardMiddleware } from 'agentguard/langchain';
import { airlineBackend } from 'agentguard/testing';
import { AIMessage, createAgent, fakeModel, HumanMessage, tool } from 'langchain';
import { z } from 'zod';

// Your backend: here the tau-bench airline in memory.
const airline = await airlineBackend();
// Your model (such as `'openai:gpt-4.1'`): here LangChain's fake model, which cancels at once, then asks.
const model = fakeModel()
  .respondWithTools([{ id: 'call_1', name: 'cancel_reservation', args: { reservation_id: 'VYAAQN' } }])
  .respond(new AIMessage('Before I cancel, please confirm: cancel reservation VYAAQN (yes/no)?'));
const cancelReservation = tool(async ({ reservation_id }) => airline.run('cancel_reservation', { reservation_id }), {
  name: 'cancel_reservation',
  description: 'Cancel the whole reservation.',
  schema: z.object({ reservation_id: z.string() }),
});
const runtime = new GuardRuntime([await loadPack(fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline')))]);
const agent = createAgent({
  model,
  tools: [cancelReservation],
  middleware: [guardMiddleware(runtime, { invoker: airline.invoker, now: () => airline.now })],
  checkpointer: new MemorySaver(), // needed when a policy asks a person (a human-in-the-loop interrupt)
});

// The user never confirmed: the agent tries to cancel at once.
const state = await agent.invoke(
  { messages: [new HumanMessage('Hi, I am evelyn_khan_9070. Please cancel reservation VYAAQN, my plans changed.')] },
  { configurable: { thread_id: 'example' } },
);
console.log(`cancel_reservation ran: ${airline.ran.length > 0}`); // false: the guard blocked it
console.log(`the model was told: ${state.messages.find((message) => message.type === 'tool')?.text}`);
console.log(`the agent answered: ${state.messages.at(-1)?.text}`);
