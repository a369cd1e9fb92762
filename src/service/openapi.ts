import { z } from 'zod';
import { verdictReportSchema } from '../model/verdict-report.ts';
import { checkRequestSchema, healthSchema, problemSchema } from './check-request.ts';

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return json;
}

const problem = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/**
 * The service's OpenAPI 3.1 document, written from the zod schemas its routes validate and answer with.
 *
 * @example
 * ```ts
 * const document = openApiDocument('0.1.0');
 * ```
 */
export function openApiDocument(version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'agentguard decision service',
      version,
      description:
        'Decides tool calls of LLM agents against compiled guard packs. Stateless: any number of instances may serve behind a load balancer.',
    },
    paths: {
      '/v1/check': {
        post: {
          operationId: 'check',
          summary: 'Decide one tool call in its conversation',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/CheckRequest' } } },
          },
          responses: {
            '200': {
              description:
                'The verdict (allow, deny or ask), as `agentguard check` prints it. With an audit log, sent only once its record is durable.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/VerdictReport' } } },
            },
            '400': problem(
              'The body is not JSON or does not match the schema; `issues` names every problem by its JSON path',
            ),
            '413': problem('The body is larger than the limit, which the message names'),
            '415': problem('The body is not `application/json`; the message names the type sent'),
            '503': problem(
              'The verdict could not be recorded in the audit log, so none is given; treat the call as not allowed',
            ),
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'health',
          summary: 'Whether the service can decide and record calls, and the loaded packs',
          responses: {
            '200': {
              description: 'Serving',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
            },
            '503': {
              description: 'A guard cannot be loaded or the audit log cannot be written; the body says which and why',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
            },
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openapi',
          summary: 'This document',
          responses: { '200': { description: 'The OpenAPI document', content: { 'application/json': {} } } },
        },
      },
    },
    components: {
      schemas: {
        CheckRequest: schemaOf(checkRequestSchema, 'input'),
        VerdictReport: schemaOf(verdictReportSchema, 'output'),
        Problem: schemaOf(problemSchema, 'output'),
        Health: schemaOf(healthSchema, 'output'),
      },
    },
  };
}
