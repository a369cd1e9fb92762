import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ToolInvoker } from '../model/guard-context.ts';
import { recordingInvoker } from './recording-invoker.ts';

it('records each lookup once with its answer, copied when taken, and its failures', async () => {
  const user = { user_id: 'mia', reservations: ['ZFA04Y'] };
  const inner: ToolInvoker = {
    invoke: async (tool) => {
      if (tool === 'get_user_details') return user;
      throw new Error('no such reservation');
    },
    invokeNow: (tool) => (tool === 'get_user_details' ? user : undefined),
  };
  const { invoker, taken } = recordingInvoker(inner);
  assert.equal(await invoker.invoke('get_user_details', { user_id: 'mia' }), user);
  assert.equal(invoker.invokeNow?.('get_user_details', { user_id: 'mia' }), user);
  await assert.rejects(invoker.invoke('get_reservation_details', { reservation_id: 'X' }), /no such reservation/);
  const lookups = taken();
  user.reservations.push('NEW001');
  assert.deepEqual(lookups, [
    { tool: 'get_user_details', arguments: { user_id: 'mia' }, result: { user_id: 'mia', reservations: ['ZFA04Y'] } },
    { tool: 'get_reservation_details', arguments: { reservation_id: 'X' }, error: 'no such reservation' },
  ]);
});

it('answers at once only where the invoker it wraps does', () => {
  assert.equal(recordingInvoker({ invoke: async () => null }).invoker.invokeNow, undefined);
});
