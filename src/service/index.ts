/**
 * agentguard's HTTP decision service (`agentguard/service`), on Fastify: kept out of the root entry so that the
 * library loads no server framework.
 *
 * @example
 * ```ts
 * import { loadPack, openAuditLog } from 'agentguard';
 * import { createService, httpInvoker } from 'agentguard/service';
 * const app = await createService({
 *   packs: [await loadPack('packs/tau-airline')],
 *   invoker: httpInvoker('http://127.0.0.1:9000/lookups', 1000),
 *   audit: await openAuditLog('audit.db'),
 * });
 * await app.listen({ host: '127.0.0.1', port: 8080 });
 * ```
 */

export {
  type CheckRequest,
  checkRequestSchema,
  type Health,
  healthSchema,
  type Problem,
  problemSchema,
} from './check-request.ts';
export { createService, type ServiceOptions } from './create-service.ts';
export { httpInvoker, noLookups } from './lookups.ts';
export { openApiDocument } from './openapi.ts';
