import assert from 'node:assert/strict';
import { it } from 'node:test';
import { airlineBackend } from 'agentguard/testing';

it('runs the airline tools over its own copy of the data, logs them, and answers lookups from that copy', async () => {
  const airline = await airlineBackend();
  const other = await airlineBackend();
  const lookup = (backend: typeof airline) =>
    backend.invoker.invoke('get_reservation_details', { reservation_id: 'VYAAQN' }) as Promise<{ status?: string }>;
  assert.notEqual((await lookup(airline)).status, 'cancelled');
  assert.equal(JSON.parse(airline.run('cancel_reservation', { reservation_id: 'VYAAQN' })).status, 'cancelled');
  assert.equal((await lookup(airline)).status, 'cancelled');
  assert.notEqual((await lookup(other)).status, 'cancelled');
  assert.deepEqual(airline.ran, [{ tool: 'cancel_reservation', args: { reservation_id: 'VYAAQN' } }]);
  assert.deepEqual(other.ran, []);
  assert.equal(airline.now.toISOString(), '2024-05-15T20:00:00.000Z');
  assert.match(airline.run('cancel_reservation', { reservation_id: 'NOSUCH' }), /^Error: /);
  assert.ok(
    await airline.invoker.invoke('get_flight_on_date_details', { flight_number: 'HAT136', date: '2024-05-20' }),
  );
});
