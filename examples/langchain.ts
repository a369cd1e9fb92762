// Guard the tools of a LangChain.js agent with the airline pack. Runs offline: LangChain's `fakeModel()` stands in
// for a real model (such as `'openai:gpt-4.1'`), and an in-memory airline (examples/airline-backend.ts) for your
// backend.

import { MemorySaver } from '@langchain/langgraph';
import { GuardRuntime, loadPack } from 'agentguard';
import { guardMiddleware } from 'agentguard/langchain';
import { AIMessage, createAgent, fakeModel, HumanMessage, tool } from 'langchain';
import { z } from 'zod';
import { airlineBackend, airlinePackDir } from './airline-backend.ts';

// Your backend: `run` performs a write, `invoker` answers the guards' read-only lookups, `now` is its clock.
const airline = await airlineBackend();
// Your model; here one that cancels at once, then asks.
const model = fakeModel()
  .respondWithTools([{ id: 'call_1', name: 'cancel_reservation', args: { reservation_id: 'VYAAQN' } }])
  .respond(new AIMessage('Before I cancel, please confirm: cancel reservation VYAAQN (yes/no)?'));

const cancelReservation = tool(async ({ reservation_id }) => airline.run('cancel_reservation', { reservation_id }), {
  name: 'cancel_reservation',
  description: 'Cancel the whole reservation.',
  schema: z.object({ reservation_id: z.string() }),
});
const runtime = new GuardRuntime([await loadPack(airlinePackDir)]);
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
