import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapConcurrently } from './concurrent.ts';

describe('mapConcurrently', () => {
  it('gives the results in the items order, never running more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapConcurrently([30, 5, 20, 1, 10], 2, async (delay, index) => {
      running++;
      most = Math.max(most, running);
      await sleep(delay);
      running--;
      return `${index}:${delay}`;
    });
    assert.deepEqual(results, ['0:30', '1:5', '2:20', '3:1', '4:10']);
    assert.equal(most, 2);
  });

  it('starts no further item once one fails, waits for those under way, and throws the first failure', async () => {
    const started: number[] = [];
    let finished = 0;
    await assert.rejects(
      mapConcurrently([0, 1, 2, 3, 4], 2, async (item) => {
        started.push(item);
        if (item === 0) throw new Error('first');
        await sleep(10);
        finished++;
        return item;
      }),
      /first/,
    );
    assert.deepEqual(started, [0, 1]);
    assert.equal(finished, 1);
  });

  it('runs one at a time with a limit of 1, and answers an empty list', async () => {
    const order: string[] = [];
    await mapConcurrently(['a', 'b'], 1, async (item) => {
      order.push(`start ${item}`);
      await sleep(1);
      order.push(`end ${item}`);
    });
    assert.deepEqual(order, ['start a', 'end a', 'start b', 'end b']);
    assert.deepEqual(await mapConcurrently([], 3, async () => 1), []);
  });
});
