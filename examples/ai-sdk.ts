// Guard the tools of an AI SDK agent with the airline pack. Runs offline: a scripted model stands in for a real one
// (such as `openai('gpt-4.1')`), and the airline's own tool port serves as the backend.
import { GuardRuntime, loadPack } from 'agentguard';
import { guardTools } from 'agentguard/ai-sdk';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { scriptedLanguageModel } from '../src/adapters/ai-sdk/test-doubles.ts';
import { freshAirline } from '../src/adapters/airline-fixture.ts';

const airline = await freshAirline();
const model = scriptedLanguageModel([
  { calls: [{ id: 'call_1', name: 'cancel_reservation', args: { reservation_id: '5XOFTB' } }] },
  { text: 'I am sorry: this economy reservation without insurance cannot be cancelled.' },
]);

const runtime = new GuardRuntime([await loadPack('packs/tau-airline')]);
const tools = guardTools(
  runtime,
  {
    cancel_reservation: tool({
      description: 'Cancel the whole reservation.',
      inputSchema: z.object({ reservation_id: z.string() }),
      execute: async ({ reservation_id }) => airline.run('cancel_reservation', { reservation_id }),
    }),
  },
  // The guards' read-only lookups (reservations, flights) go to your backend; the clock is the airline's.
  { invoker: airline.invoker, now: () => airline.now },
);

const result = await generateText({
  model,
  messages: [
    { role: 'user', content: 'Hi, I am noah_lopez_2532. Please cancel reservation 5XOFTB, my plans changed.' },
    { role: 'assistant', content: 'I will cancel reservation 5XOFTB. Shall I proceed (yes/no)?' },
    { role: 'user', content: 'Yes, please.' },
  ],
  tools,
  stopWhen: stepCountIs(5),
});

const blocked = result.steps[0]?.toolResults[0]?.output;
console.log(`cancel_reservation ran: ${airline.ran.length > 0}`); // false: the guard blocked it
console.log(`the model was told: ${String(blocked)}`); // feedbackFor(verdict): the policy and what to do instead
console.log(`the agent answered: ${result.text}`);
