// Guard the tools of an AI SDK agent with the airline pack: the README's snippet. Runs offline: the AI SDK's mock model
// stands in for a real one (such as `openai('gpt-4.1')`), and the airline held in memory for your backend.
import { fileURLToPath } from 'node:url';
import { GuardRuntime, loadPack } from 'agentguard';
import { guardedToolApproval, guardTools } from 'agentguard/ai-sdk';
import { airlineBackend } from 'agentguard/testing';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

// Your backend: here the tau-bench airline in memory.
const airline = await airlineBackend();
// Your model (such as `openai('gpt-4.1')`): here the AI SDK's mock, which asks to cancel 5XOFTB, then answers.
const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const model = new MockLanguageModelV4({
  doGenerate: [
    {
      content: [
        {
          type: 'tool-call',
          toolCallId: 'call_1',
          toolName: 'cancel_reservation',
          input: '{"reservation_id":"5XOFTB"}',
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'I am sorry: this economy reservation without insurance cannot be cancelled.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    },
  ],
});
// The shipped airline pack, found by module name.
const runtime = new GuardRuntime([await loadPack(fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline')))]);
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
  // Asks go to a person with their reason; denied calls are refused the AI SDK's way (`execution-denied`).
  toolApproval: guardedToolApproval(tools),
  stopWhen: stepCountIs(5),
});

const refusal = result.steps[0]?.content.find((part) => part.type === 'tool-approval-response');
console.log(`cancel_reservation ran: ${airline.ran.length > 0}`); // false: the guard blocked it
console.log(`the model was told: ${refusal?.reason}`); // feedbackFor(verdict): the policy and what to do instead
console.log(`the agent answered: ${result.text}`);
