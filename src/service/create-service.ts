import { createServer } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AuditLog } from '../audit/audit-log.ts';
import { InputError } from '../errors.ts';
import type { ToolInvoker } from '../model/guard-context.ts';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import { verdictReport } from '../model/verdict-report.ts';
import { importOptional } from '../optional-package.ts';
import type { GuardPack } from '../pack/load-pack.ts';
import { packageVersion } from '../package-root.ts';
import { guardLoadError } from '../runtime/guard-load.ts';
import { GuardRuntime, type RuntimeOptions } from '../runtime/guard-runtime.ts';
import { checkRequestSchema, type Health, type Problem } from './check-request.ts';
import { openApiDocument } from './openapi.ts';

/** What a decision service serves. */
export interface ServiceOptions {
  packs: readonly GuardPack[];
  /** The read-only lookups guards call (`httpInvoker`, a domain's own, or `noLookups`). */
  invoker: ToolInvoker;
  /** The clock for requests that give no `now`. Default: the time now. */
  clock?: () => Date;
  /** Where verdicts are appended; a verdict is answered only once its record is durable. */
  audit?: AuditLog;
  /**
   * How long a check waits for its record to be durable before it answers 503 `audit_unavailable`, in milliseconds.
   * Default 2000.
   */
  auditTimeoutMs?: number;
  /** How the runtime decides what no policy decides, and the time budget of a check. */
  runtime?: Omit<RuntimeOptions, 'audit'>;
  /** Largest body accepted, in bytes; larger ones get 413. Default 1 MiB. */
  bodyLimit?: number;
  /** Time a client has to send a whole request, in milliseconds. Default 30 s. */
  requestTimeoutMs?: number;
}

const problem = (error: string, message: string, issues?: Problem['issues']): Problem =>
  issues === undefined ? { error, message } : { error, message, issues };

/**
 * The answer to a failed request: bad input is 400 with its issues, framework errors keep their 4xx status; a 415
 * names the media type expected and the one sent, a 413 the limit.
 */
function problemFor(
  error: unknown,
  request: { contentType: string | undefined; bodyLimit: number },
): { status: number; body: Problem } {
  if (error instanceof InputError) {
    return { status: 400, body: problem(error.code, error.message, [...error.issues]) };
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) {
    return {
      status,
      body: problem('body_too_large', `the request body is over the limit of ${request.bodyLimit} bytes`),
    };
  }
  if (status === 415) {
    const sent = request.contentType === undefined ? 'no content type' : `\`${request.contentType}\``;
    return {
      status,
      body: problem('unsupported_media_type', `the request body must be \`application/json\`, not ${sent}`),
    };
  }
  if (status >= 400 && status < 500) {
    return { status, body: problem('bad_request', fastifyError.message ?? 'bad request') };
  }
  return { status: 500, body: problem('internal', 'the request could not be decided') };
}

/** The service's routes and the methods each answers; another method on one of them is 405. */
const routeMethods: Record<string, readonly string[]> = {
  '/healthz': ['GET', 'HEAD'],
  '/openapi.json': ['GET', 'HEAD'],
  '/v1/check': ['POST'],
};

/** The health of a service: failing while a guard cannot be loaded or the audit log cannot be written. */
async function healthOf(runtime: GuardRuntime, packs: readonly string[], audit: AuditLog | undefined): Promise<Health> {
  const failures = await runtime.loadFailures();
  const guards: Health['guards'] =
    failures.length === 0 ? { status: 'ok' } : { status: 'failing', reason: guardLoadError(failures).message };
  const health: Health = { status: guards.status, packs: [...packs], guards };
  if (audit !== undefined) {
    const written = audit.health();
    health.audit = written.ok ? { status: 'ok' } : { status: 'failing', reason: written.reason };
    if (!written.ok) health.status = 'failing';
  }
  return health;
}

/**
 * The HTTP decision service on Fastify: `POST /v1/check` decides one tool call and answers the verdict as
 * `agentguard check` prints it; `GET /healthz` (503 while a guard cannot be loaded or the audit log cannot be
 * written, naming why); `GET /openapi.json`. Bad input gets 400 naming every problem by its JSON path, oversized bodies
 * 413; no request can stop the process. Keeps no state between requests. Throws (`invalid_pack`) when an enforced
 * policy's check cannot be loaded, since every call it guards would be denied. The packs are warmed up
 * (`GuardRuntime.warmUp`) before it answers. Closing the instance stops the runtime (not the audit log, which the
 * caller owns).
 *
 * @example
 * ```ts
 * const app = await createService({ packs: [await loadPack('packs/tau-airline')], invoker: noLookups });
 * await app.listen({ host: '127.0.0.1', port: 8080 });
 * ```
 */
export async function createService(options: ServiceOptions): Promise<FastifyInstance> {
  const { default: Fastify } = await importOptional('the decision service', () => import('fastify'));
  const runtime = new GuardRuntime(
    options.packs,
    options.audit === undefined ? { ...options.runtime } : { ...options.runtime, audit: options.audit },
  );
  const failures = await runtime.loadFailures();
  if (failures.length > 0) {
    await runtime.close();
    throw guardLoadError(failures);
  }
  // Before the first request, so that no request pays for compiling the guard code.
  await runtime.warmUp();
  const clock = options.clock ?? (() => new Date());
  const audit = options.audit;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const app = Fastify({
    bodyLimit,
    return503OnClosing: true,
    logger: false,
    // Node checks request deadlines every `connectionsCheckingInterval`: a slow client is cut off within 1.5 deadlines.
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout,
          headersTimeout: requestTimeout,
          connectionsCheckingInterval: Math.max(10, Math.min(requestTimeout / 2, 1000)),
        },
        handler,
      ),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonText(body as string, 'request body'));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = problemFor(error, { contentType: request.headers['content-type'], bodyLimit });
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const methods = routeMethods[request.url.split('?')[0] ?? ''];
    if (methods !== undefined) {
      return reply
        .code(405)
        .header('allow', methods.join(', '))
        .send(
          problem('method_not_allowed', `\`${request.url}\` answers ${methods.join(', ')}, not \`${request.method}\``),
        );
    }
    return reply.code(404).send(problem('not_found', `no route \`${request.method} ${request.url}\``));
  });
  app.addHook('onClose', () => runtime.close());

  const document = openApiDocument(packageVersion());
  const domains = options.packs.map((pack) => pack.manifest.domain);
  const auditTimeoutMs = options.auditTimeoutMs ?? 2000;
  app.get('/healthz', async (_request, reply) => {
    const health = await healthOf(runtime, domains, audit);
    return reply.code(health.status === 'ok' ? 200 : 503).send(health);
  });
  app.get('/openapi.json', async () => document);
  app.post('/v1/check', async (request, reply) => {
    const body = parseInput(checkRequestSchema, request.body, 'request body');
    const conversation = fromOpenAIChat(body.messages, 'request body', '$.messages');
    const now = body.now === undefined ? clock() : new Date(body.now);
    const verdict = await runtime.check(body.call, { conversation, invoker: options.invoker, now });
    if (audit !== undefined) {
      try {
        await audit.flush({ timeoutMs: auditTimeoutMs });
      } catch (error) {
        return reply
          .code(503)
          .send(problem('audit_unavailable', `the verdict could not be recorded: ${(error as Error).message}`));
      }
    }
    return verdictReport(verdict);
  });
  return app;
}
