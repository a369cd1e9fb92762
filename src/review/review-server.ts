import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentGuardError } from '../errors.ts';
import { approvePack } from '../pack/approve-pack.ts';
import { loadPack } from '../pack/load-pack.ts';
import { packagePath } from '../package-root.ts';
import type { DecisionSource } from './decision-source.ts';
import { type Decisions, packOverview, policyDetail } from './review-model.ts';

/** A running review server. */
export interface ReviewServer {
  /** The page's address, e.g. `http://127.0.0.1:4173/`. */
  url: string;
  close(): Promise<void>;
}

/** Options of `startReviewServer`. */
export interface ReviewServerOptions {
  /** The guard pack folder under review. */
  pack: string;
  /** Where the decisions shown per policy come from; none when omitted. */
  decisions?: DecisionSource;
  /** Address to bind: `127.0.0.1` unless said otherwise. */
  host?: string;
  /** Port to bind; 0 (the default) picks a free one. */
  port?: number;
}

/** The page's files, written for this server and served from this folder; nothing is fetched from elsewhere. */
const assets: Record<string, string> = {
  'review.css': 'text/css; charset=utf-8',
  'review.js': 'text/javascript; charset=utf-8',
  'highlight.js': 'text/javascript; charset=utf-8',
};

/** The page's files are shipped as written, beside the source, in the package too. */
const assetFile = (name: string) => packagePath(`src/review/assets/${name}`);

class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  });
  response.end(body);
}

const sendJson = (response: ServerResponse, status: number, value: unknown) =>
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));

async function readBody(request: IncomingMessage, limit = 64 * 1024): Promise<unknown> {
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) {
    throw new HttpError(415, 'expected a JSON body (content-type: application/json)');
  }
  let text = '';
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > limit) throw new HttpError(413, `the body is larger than ${limit} bytes`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the body is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Starts the review page's server for a pack: the page, its assets, and a JSON API (`GET /api/pack`, `GET
 * /api/policies/<id>`, `POST /api/approve` with `{ by, fingerprint, acceptNotEnforced? }`). The pack is read from disk
 * on every request, so edits show on reload; an approval covers only the content the page was shown (`fingerprint`).
 * Requests whose `Host` or `Origin` is not the server's own address are refused, so other sites cannot drive it.
 *
 * @example
 * ```ts
 * const server = await startReviewServer({ pack: 'packs/tau-airline' });
 * console.log(server.url);
 * await server.close();
 * ```
 */
export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const host = options.host ?? '127.0.0.1';
  /** The `Host` headers accepted when bound to a loopback address (a guard against DNS rebinding). */
  let loopbackHosts: Set<string> | undefined;

  async function decisions(): Promise<Decisions | undefined> {
    if (options.decisions === undefined) return undefined;
    return { source: options.decisions.label, records: await options.decisions.read() };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestHost = request.headers.host ?? '';
    if (loopbackHosts !== undefined && !loopbackHosts.has(requestHost)) {
      throw new HttpError(421, `unexpected host \`${requestHost}\``);
    }
    if (request.headers.origin !== undefined && request.headers.origin !== `http://${requestHost}`) {
      throw new HttpError(403, `requests from \`${request.headers.origin}\` are not accepted`);
    }
    const url = new URL(request.url ?? '/', `http://${requestHost}`);
    const path = url.pathname;
    if (request.method === 'GET' && (path === '/' || path === '/index.html')) {
      send(response, 200, 'text/html; charset=utf-8', await readFile(assetFile('index.html'), 'utf8'));
      return;
    }
    const asset = /^\/assets\/([a-z-]+\.(?:css|js))$/.exec(path)?.[1];
    const assetType = asset === undefined ? undefined : assets[asset];
    if (request.method === 'GET' && asset !== undefined && assetType !== undefined) {
      send(response, 200, assetType, await readFile(assetFile(asset), 'utf8'));
      return;
    }
    if (request.method === 'GET' && path === '/api/pack') {
      const pack = await loadPack(options.pack, { importGuards: false });
      sendJson(response, 200, await packOverview(pack, await decisions()));
      return;
    }
    const policyId = /^\/api\/policies\/([^/]+)$/.exec(path)?.[1];
    if (request.method === 'GET' && policyId !== undefined) {
      const id = decodeURIComponent(policyId);
      const pack = await loadPack(options.pack, { importGuards: false });
      const detail = await policyDetail(pack, id, await decisions());
      if (detail === undefined) throw new HttpError(404, `the pack has no policy \`${id}\``);
      sendJson(response, 200, detail);
      return;
    }
    if (request.method === 'POST' && path === '/api/approve') {
      const body = (await readBody(request)) as {
        by?: unknown;
        acceptNotEnforced?: unknown;
        fingerprint?: unknown;
      } | null;
      if (typeof body?.by !== 'string') throw new HttpError(400, 'the approval needs `by`, the name of who approves');
      if (typeof body.fingerprint !== 'string') {
        throw new HttpError(400, 'the approval needs `fingerprint`, the content it covers as `GET /api/pack` gave it');
      }
      const result = await approvePack(options.pack, {
        by: body.by,
        fingerprint: body.fingerprint,
        acceptNotEnforced: body.acceptNotEnforced === true,
      });
      sendJson(response, result.approved ? 200 : 409, result);
      return;
    }
    throw new HttpError(404, `no page \`${request.method} ${path}\``);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status =
        error instanceof HttpError
          ? error.status
          : AgentGuardError.isInstance(error) && error.code.startsWith('invalid')
            ? 400
            : 500;
      sendJson(response, status, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  if (address.address.startsWith('127.') || address.address === '::1') {
    loopbackHosts = new Set([`${hostPart}:${address.port}`, `localhost:${address.port}`]);
  }
  return {
    url: `http://${hostPart}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
