// Guard the tools of an OpenAI Agents SDK agent with the airline pack, where a person approves what policy
// `cancel.eligibility` would refuse (its effect set to `ask` in the pack's manifest). Runs offline: a scripted model
// stands in for a real one (such as `model: 'gpt-4.1'`), and the airline held in memory (`airlineBackend()` from
// `agentguard/testing`) for your backend.

import { Agent, type Model, type ModelResponse, setTracingDisabled, tool, Usage } from '@openai/agents';
import { GuardRuntime } from 'agentguard';
import { guardAgentTools } from 'agentguard/openai-agents';
import { airlineBackend } from 'agentguard/testing';
import { z } from 'zod';
import { airlinePackWithAsk } from './airline-backend.ts';

setTracingDisabled(true);
// Your backend: `run` performs a write, `invoker` answers the guards' read-only lookups, `now` is its clock.
const airline = await airlineBackend();
// Your model; here one that asks to cancel reservation 5XOFTB, then answers.
const answers: ModelResponse['output'][] = [
  [{ type: 'function_call', callId: 'call_1', name: 'cancel_reservation', arguments: '{"reservation_id":"5XOFTB"}' }],
  [
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Your reservation 5XOFTB is cancelled.' }],
    },
  ],
];
const model: Model = {
  getResponse: async () => ({ usage: new Usage(), output: answers.shift() ?? [] }),
  getStreamedResponse: () => {
    throw new Error('this example does not stream');
  },
};

const runtime = new GuardRuntime([await airlinePackWithAsk(['cancel.eligibility'])]);
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
await runtime.close(); // the changed pack is not reviewed, so its guards ran in a worker thread
