// Guard the tools of an OpenAI Agents SDK agent with the airline pack, where a person approves what policy
// `cancel.eligibility` would refuse (its effect set to `ask` in the pack's manifest). Runs offline: a scripted model
// stands in for a real one (such as `model: 'gpt-4.1'`), and the airline's own tool port serves as the backend.

import { Agent, setTracingDisabled, tool } from '@openai/agents';
import { GuardRuntime } from 'agentguard';
import { guardAgentTools } from 'agentguard/openai-agents';
import { z } from 'zod';
import { airlinePack, freshAirline } from '../src/adapters/airline-fixture.ts';
import { ScriptedAgentModel } from '../src/adapters/openai-agents/test-doubles.ts';

setTracingDisabled(true);
const airline = await freshAirline();
const model = new ScriptedAgentModel([
  { calls: [{ id: 'call_1', name: 'cancel_reservation', args: { reservation_id: '5XOFTB' } }] },
  { text: 'Your reservation 5XOFTB is cancelled.' },
]);

const runtime = new GuardRuntime([await airlinePack({ ask: ['cancel.eligibility'] })]);
const guard = guardAgentTools(
  runtime,
  [
    tool({
      name: 'cancel_reservation',
      description: 'Cancel the whole reservation.',
      parameters: z.object({ reservation_id: z.string() }),
      execute: async ({ reservation_id }) => airline.run('cancel_reservation', { reservation_id }),
    }),
  ],
  { invoker: airline.invoker, now: () => airline.now },
);
const agent = new Agent({ name: 'Airline agent', instructions: 'Help the user.', model, tools: guard.tools });

let result = await guard.run(agent, [
  { role: 'user', content: 'Hi, I am noah_lopez_2532. Please cancel reservation 5XOFTB, my plans changed.' },
  {
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'I will cancel reservation 5XOFTB. Shall I proceed (yes/no)?' }],
  },
  { role: 'user', content: 'Yes, please.' },
]);
for (const interruption of result.interruptions) {
  console.log(`waiting for approval: ${interruption.name}: ${await guard.reasonFor(result.state, interruption)}`);
}
console.log(`cancel_reservation ran: ${airline.ran.length > 0}`); // false: a person must approve first

// A supervisor approves; the run resumes and the call runs once.
for (const interruption of result.interruptions) result.state.approve(interruption);
result = await guard.run(agent, result.state);
console.log(`cancel_reservation ran: ${airline.ran.length > 0}`);
console.log(`the agent answered: ${result.finalOutput}`);
