import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { AgentGuardError } from '../errors.ts';
import { Budget, formatSpending } from './budget.ts';
import { bySubject, inRecordedOrder, RecordingModel, ReplayModel, readCassette, requestKey } from './cassette.ts';
import { ExchangeModel } from './exchange-model.ts';
import { createLanguageModel } from './providers.ts';
import { ScriptedModel } from './scripted-model.ts';
import { generateStructured, StepFailedError } from './structured.ts';

const schema = z.object({ policies: z.array(z.object({ name: z.string() })).min(1) });
const ask = (
  model: ScriptedModel | ReplayModel | RecordingModel,
  budget = new Budget({ maxCalls: 10, maxTokens: 10_000 }),
) => generateStructured({ model, budget, step: 'map.test', system: 'You map policies.', prompt: 'Map them.', schema });

describe('generateStructured', () => {
  it('asks again with the problems until the answer is valid, and counts the retries', async () => {
    const model = new ScriptedModel([
      'not json',
      '{"policies": []}',
      '```json\n{"policies": [{"name": "refunds"}]}\n```',
    ]);
    const budget = new Budget({ maxCalls: 10, maxTokens: 10_000 });
    assert.deepEqual(await ask(model, budget), { policies: [{ name: 'refunds' }] });
    assert.deepEqual(budget.steps.get('map.test'), {
      calls: 3,
      inputTokens: 0,
      outputTokens: 0,
      retries: 2,
      estimated: false,
    });
    assert.match(model.requests[1]?.messages.at(-1)?.content ?? '', /not valid JSON/);
    assert.match(model.requests[2]?.messages.at(-1)?.content ?? '', /\$\.policies: Too small/);
    assert.match(model.requests[0]?.messages[0]?.content ?? '', /JSON Schema/);
  });
  it('fails the step with the last answer after its attempts', async () => {
    const model = new ScriptedModel(['{}', '{}', '{"policies": 3}']);
    await assert.rejects(
      ask(model),
      (error: unknown) => error instanceof StepFailedError && error.lastAnswer === '{"policies": 3}',
    );
  });
  it('stops at the budget', async () => {
    const model = new ScriptedModel(['{}', '{}', '{}']);
    await assert.rejects(
      ask(model, new Budget({ maxCalls: 2, maxTokens: 10_000 })),
      (error: unknown) => AgentGuardError.isInstance(error) && error.code === 'budget_exceeded',
    );
  });
});

describe('recordings', () => {
  it('replay the recorded answer for the same request and refuse a changed one', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-')), 'cassette.json');
    const recording = new RecordingModel(new ScriptedModel(['{"policies": [{"name": "a"}]}']), 'scripted answers');
    await ask(recording);
    await recording.save(file);
    const cassette = await readCassette(file);
    assert.equal(cassette.source, 'scripted answers');
    assert.deepEqual(await ask(new ReplayModel(cassette)), { policies: [{ name: 'a' }] });
    await assert.rejects(
      generateStructured({
        model: new ReplayModel(cassette),
        budget: new Budget({ maxCalls: 9, maxTokens: 9 }),
        step: 'map.test',
        system: 'changed',
        prompt: 'Map them.',
        schema,
      }),
      /no answer for step `map.test`/,
    );
  });

  it('resume a stopped recording: its answers are given again without asking, new requests are added', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-')), 'cassette.json');
    const first = await RecordingModel.resuming(new ScriptedModel(['{"policies": [{"name": "a"}]}']), file);
    await ask(first);
    assert.equal((await readCassette(file)).entries.length, 1, 'saved after the answer, before any save call');
    const inner = new ScriptedModel(['{"policies": [{"name": "b"}]}']);
    const resumed = await RecordingModel.resuming(inner, file);
    assert.deepEqual(await ask(resumed), { policies: [{ name: 'a' }] });
    assert.equal(inner.requests.length, 0, 'the model was not asked');
    const other = await generateStructured({
      model: resumed,
      budget: new Budget({ maxCalls: 9, maxTokens: 9_000 }),
      step: 'map.other',
      system: 'Map.',
      prompt: 'Map others.',
      schema,
    });
    assert.deepEqual(other, { policies: [{ name: 'b' }] });
    const saved = await readCassette(file);
    assert.deepEqual(
      saved.entries.map((entry) => entry.step),
      ['map.test', 'map.other'],
    );
  });
});

describe('inRecordedOrder', () => {
  it("answers each step's requests with its recorded answers in order, whatever the prompt version", async () => {
    const usage = { inputTokens: 1, outputTokens: 1 };
    const cassette = {
      format: 1 as const,
      source: 'recorded',
      entries: [
        { key: 'a', step: 'plan@v1', text: 'first plan', usage },
        { key: 'b', step: 'code@v1', text: 'code', usage },
        { key: 'c', step: 'plan@v1', text: 'second plan', usage },
      ],
    };
    const model = inRecordedOrder(cassette, 'recorded, re-keyed');
    const ask = (step: string) => model.complete({ step, system: 'changed', messages: [] });
    assert.equal((await ask('plan@v2')).text, 'first plan');
    assert.equal((await ask('plan@v2')).text, 'second plan');
    assert.equal((await ask('code@v3')).text, 'code');
    await assert.rejects(ask('plan@v2'), /no further answer for step `plan@v2`/);
    assert.equal(model.id, 'recorded, re-keyed');
  });
});

describe('bySubject', () => {
  it('answers a held request by its key, and another by step and subject in recorded order; a recording keeps the subject', async () => {
    const usage = { inputTokens: 1, outputTokens: 1 };
    const held = { step: 'code@v1', system: 'same', messages: [], subject: 'b.ts' };
    const cassette = {
      format: 1 as const,
      source: 'recorded',
      entries: [
        { key: 'x', step: 'code@v1', subject: 'a.ts', text: 'code of a', usage },
        { key: requestKey(held), step: 'code@v1', subject: 'b.ts', text: 'code of b', usage },
        { key: 'y', step: 'code@v1', subject: 'a.ts', text: 'code of a, repaired', usage },
      ],
    };
    const recording = new RecordingModel(bySubject(cassette, 'recorded, re-keyed'));
    const ask = (subject: string) => recording.complete({ step: 'code@v2', system: 'changed', messages: [], subject });
    assert.equal((await recording.complete(held)).text, 'code of b');
    assert.equal((await ask('a.ts')).text, 'code of a');
    assert.equal((await ask('a.ts')).text, 'code of a, repaired');
    await assert.rejects(ask('a.ts'), /no answer for step `code@v2` about `a.ts`/);
    await assert.rejects(ask('c.ts'), /about `c.ts`/);
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-rekey-')), 'run.json');
    await recording.save(file);
    assert.deepEqual(
      (await readCassette(file)).entries.map((entry) => [entry.step, entry.subject, entry.text]),
      [
        ['code@v1', 'b.ts', 'code of b'],
        ['code@v2', 'a.ts', 'code of a'],
        ['code@v2', 'a.ts', 'code of a, repaired'],
      ],
    );
  });
});

describe('ExchangeModel', () => {
  it('writes the request and waits for the answer file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentguard-exchange-'));
    const model = new ExchangeModel(dir, 10);
    const pending = model.complete({ step: 'map.test', system: 'sys', messages: [{ role: 'user', content: 'hello' }] });
    let files: string[] = [];
    while (files.length === 0) files = await readdir(dir);
    assert.deepEqual(files, ['0001-map.test.request.md']);
    assert.match(await readFile(join(dir, files[0] ?? ''), 'utf8'), /## user\n\nhello/);
    await writeFile(join(dir, '0001-map.test.answer.md'), 'the answer');
    assert.equal((await pending).text, 'the answer');
  });
  it('waits while the answer file is empty or still changing, and takes it once it holds still', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentguard-exchange-'));
    const model = new ExchangeModel(dir, 20);
    const answer = join(dir, '0001-map.test.answer.md');
    await writeFile(answer, '');
    let settled = false;
    const pending = model
      .complete({ step: 'map.test', system: 'sys', messages: [{ role: 'user', content: 'hello' }] })
      .finally(() => {
        settled = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(settled, false);
    await writeFile(answer, '{"poli');
    await writeFile(answer, '{"policies": []}');
    assert.equal((await pending).text, '{"policies": []}');
  });
  it('estimates tokens from the texts, marks them estimated, and so lets --max-tokens bind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentguard-exchange-'));
    await writeFile(join(dir, '0001-map.test.answer.md'), '{"policies": []}');
    const budget = new Budget({ maxCalls: 10, maxTokens: 20 });
    const model = new ExchangeModel(dir, 10);
    const request = {
      step: 'map.test',
      system: 'sys',
      messages: [{ role: 'user' as const, content: 'x'.repeat(100) }],
    };
    const { usage } = await model.complete(request);
    assert.equal(usage.estimated, true);
    assert.equal(usage.outputTokens, 4);
    assert.ok(usage.inputTokens >= 25);
    budget.reserve('map.test');
    budget.spend('map.test', usage);
    assert.match(
      formatSpending(budget).join('\n'),
      /map\.test\s+1 calls \(0 retried\), ~\d+ tokens[\s\S]*estimated from the text/,
    );
    assert.throws(() => budget.reserve('map.test'), /tokens, estimated from the text\) before step/);
  });
});

describe('providers over their wire format, against a local server', () => {
  const seen: { path: string; body: Record<string, unknown> }[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text) as Record<string, unknown>;
    seen.push({ path: request.url ?? '', body });
    response.setHeader('content-type', 'application/json');
    if (request.url?.endsWith('/messages')) {
      response.end(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          stop_reason: 'end_turn',
          stop_sequence: null,
          content: [{ type: 'text', text: '{"policies": [{"name": "from anthropic"}]}' }],
          usage: { input_tokens: 11, output_tokens: 7 },
        }),
      );
      return;
    }
    response.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 0,
        model: 'test',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: '{"policies": [{"name": "from openai"}]}' },
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
      }),
    );
  });
  let baseUrl = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => server.close());

  for (const [name, expected, path] of [
    ['openai-compatible:llama3.1', 'from openai', '/v1/chat/completions'],
    ['openai:gpt-4.1', 'from openai', '/v1/chat/completions'],
    ['anthropic:claude-test', 'from anthropic', '/v1/messages'],
  ] as const) {
    it(`${name} answers a structured step and reports its tokens`, async () => {
      const model = createLanguageModel(
        name,
        { baseUrl, maxRetries: 0 },
        { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
      );
      const budget = new Budget({ maxCalls: 5, maxTokens: 1000 });
      const answer = await generateStructured({
        model,
        budget,
        step: 'map.test',
        system: 'You map policies.',
        prompt: 'Map them.',
        schema,
      });
      assert.deepEqual(answer, { policies: [{ name: expected }] });
      assert.equal(seen.at(-1)?.path, path);
      assert.ok((budget.total().inputTokens ?? 0) > 0);
    });
  }
  it('names unknown providers and missing base URLs', () => {
    assert.throws(() => createLanguageModel('acme:x'), /unknown model provider `acme`/);
    assert.throws(() => createLanguageModel('openai-compatible:x', {}, {}), /needs a base URL/);
  });
});
