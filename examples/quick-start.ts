import { fileURLToPath } from 'node:url';
import { feedbackFor, fromOpenAIChat, GuardRuntime, loadPack } from 'agentguard';
import { mockInvoker } from 'agentguard/testing';

// 1. Load a reviewed guard pack (here the shipped airline pack, found by module name) and start the runtime.
const runtime = new GuardRuntime([await loadPack(fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline')))]);

// 2. The conversation so far, in the OpenAI chat format your agent already keeps.
const conversation = fromOpenAIChat(
  [
    { role: 'user', content: 'Hi, I am mia_li_3668. Please cancel reservation ZFA04Y, my plans changed.' },
    { role: 'assistant', content: 'Reservation ZFA04Y (JFK to SEA, economy, no insurance). Shall I cancel it?' },
    { role: 'user', content: 'Yes, please go ahead.' },
  ],
  'conversation',
);

// 3. Read-only lookups the guards may call: here answered from memory; in production, your own backend.
const invoker = mockInvoker({
  get_reservation_details: () => ({
    reservation_id: 'ZFA04Y',
    user_id: 'mia_li_3668',
    cabin: 'economy',
    insurance: 'no',
    created_at: '2024-05-01T10:00:00',
    flights: [{ flight_number: 'HAT136', date: '2024-05-20', price: 150, origin: 'JFK', destination: 'SEA' }],
    passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
  }),
  get_flight_on_date_details: () => ({ status: 'available' }),
});

// 4. Decide the call before it runs.
const verdict = await runtime.check(
  { id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } },
  { conversation, invoker, now: new Date('2024-05-15T15:00:00-05:00') },
);
console.log(verdict.decision); // deny: economy, no insurance, booked two weeks ago
console.log(feedbackFor(verdict)); // what to tell the agent instead of running the tool
