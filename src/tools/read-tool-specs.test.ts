import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.ts';
import { readToolSpecs } from './read-tool-specs.ts';

const dir = await mkdtemp(join(tmpdir(), 'agentguard-tools-'));
const file = async (name: string, value: unknown) => {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(value));
  return path;
};

describe('readToolSpecs', () => {
  it('reads a JSON Schema tool list with its read-only flags', async () => {
    const read = await readToolSpecs(fileURLToPath(new URL('../../packs/tau-airline/tools.json', import.meta.url)));
    assert.equal(read.format, 'json-schema');
    assert.equal(read.tools.length, 15);
    assert.deepEqual(read.guessed, []);
    assert.equal(read.tools.find((tool) => tool.name === 'cancel_reservation')?.readOnly, false);
  });
  it('reads OpenAI tools and guesses read-only tools from their names, unless told', async () => {
    const path = await file('openai.json', [
      {
        type: 'function',
        function: {
          name: 'get_order',
          description: 'Get.',
          parameters: { type: 'object', properties: { id: { type: 'string' } } },
        },
      },
      { type: 'function', function: { name: 'refund_order', description: 'Refund.', parameters: { type: 'object' } } },
    ]);
    const read = await readToolSpecs(path);
    assert.equal(read.format, 'openai-tools');
    assert.deepEqual(
      read.tools.map((tool) => [tool.name, tool.readOnly]),
      [
        ['get_order', true],
        ['refund_order', false],
      ],
    );
    assert.deepEqual(read.guessed, ['get_order', 'refund_order']);
    const told = await readToolSpecs(path, { readOnly: ['refund_order'] });
    assert.deepEqual(
      told.tools.map((tool) => tool.readOnly),
      [false, true],
    );
  });
  it('reads an OpenAPI 3 document: one tool per operation, parameters and body merged, GET read-only', async () => {
    const read = await readToolSpecs(
      await file('openapi.json', {
        openapi: '3.0.3',
        paths: {
          '/orders/{id}': {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            get: { operationId: 'getOrder', summary: 'Get an order.' },
            post: {
              operationId: 'refundOrder',
              requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Refund' } } } },
            },
          },
        },
        components: {
          schemas: { Refund: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] } },
        },
      }),
    );
    assert.equal(read.format, 'openapi');
    assert.deepEqual(
      read.tools.map((tool) => [tool.name, tool.readOnly]),
      [
        ['getOrder', true],
        ['refundOrder', false],
      ],
    );
    assert.deepEqual(read.tools[1]?.parameters, {
      type: 'object',
      properties: { id: { type: 'string' }, amount: { type: 'number' } },
      required: ['id', 'amount'],
    });
  });
  it('reads an MCP tools/list result with readOnlyHint', async () => {
    const read = await readToolSpecs(
      await file('mcp.json', {
        jsonrpc: '2.0',
        id: 1,
        result: {
          tools: [
            {
              name: 'query',
              description: 'Run a query.',
              inputSchema: { type: 'object' },
              annotations: { readOnlyHint: true },
            },
            { name: 'drop_table', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
          ],
        },
      }),
    );
    assert.equal(read.format, 'mcp');
    assert.deepEqual(
      read.tools.map((tool) => [tool.name, tool.readOnly]),
      [
        ['query', true],
        ['drop_table', false],
      ],
    );
    assert.deepEqual(read.guessed, []);
  });
  it('keeps result schemas: MCP outputSchema, OpenAPI success responses, returns in a tool list', async () => {
    const result = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };
    const mcp = await readToolSpecs(
      await file('mcp-output.json', {
        tools: [{ name: 'get_order', inputSchema: { type: 'object' }, outputSchema: result }],
      }),
    );
    assert.deepEqual(mcp.tools[0]?.returns, result);
    const openapi = await readToolSpecs(
      await file('openapi-output.json', {
        openapi: '3.0.3',
        paths: {
          '/orders/{id}': {
            get: {
              operationId: 'getOrder',
              responses: {
                '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } },
              },
            },
          },
        },
        components: { schemas: { Order: result } },
      }),
    );
    assert.deepEqual(openapi.tools[0]?.returns, result);
    const list = await readToolSpecs(
      await file('list-output.json', [
        { name: 'get_order', parameters: { type: 'object' }, readOnly: true, returns: result },
      ]),
    );
    assert.deepEqual(list.tools[0]?.returns, result);
  });
  it('reports unsupported schema features with their JSON paths', async () => {
    const path = await file('bad.json', [
      { name: 'a', parameters: { type: 'object', properties: { x: { not: { type: 'string' } } } } },
      { name: 'b', parameters: { $ref: 'shared/schema.json' } },
    ]);
    await assert.rejects(readToolSpecs(path), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.deepEqual(
        error.issues.map((issue) => issue.location),
        ['$[0].parameters.properties.x.not', '$[1].parameters.$ref'],
      );
      return true;
    });
  });
});
