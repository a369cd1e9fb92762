import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ServerCapabilities,
  SubscribeRequestSchema,
  ToolListChangedNotificationSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolInvoker } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import { loadPack } from '../pack/load-pack.ts';
import { feedbackFor } from '../runtime/feedback.ts';
import { guardLoadError } from '../runtime/guard-load.ts';
import { GuardRuntime, type RuntimeOptions } from '../runtime/guard-runtime.ts';
import { askPerson } from './ask-person.ts';
import { defaultAskTimeoutMs } from './ask-timeout.ts';
import { ProxyConversation, resultText } from './proxy-conversation.ts';
import { realPathOf, realPathTool } from './real-path.ts';
import { connectUpstream, describeUpstream, type UpstreamTarget } from './upstream.ts';

/** What the proxy guards with and how. */
export interface GuardProxyOptions {
  /** Guard pack folders; their tools are checked, other tools follow `runtime.unknownTool`. */
  packs: readonly string[];
  /** How the runtime decides what no enforced policy decides (`unknownTool`, `shadow`, …). */
  runtime?: RuntimeOptions;
  /** How long a person has to answer an approval request, in milliseconds. Default `defaultAskTimeoutMs`. */
  askTimeoutMs?: number;
  /**
   * The proxy sees the disk the upstream acts on (it runs beside the server, on the same machine and mounts): it then
   * answers the `agentguard_real_path` lookup (where a path really points, links followed) from its own view. Off by
   * default, since a proxy in front of a remote or containerised server would answer about the wrong disk.
   */
  sameDisk?: boolean;
}

/**
 * Time budget of one policy check in a proxy, in milliseconds, unless `runtime.timeoutMs` says otherwise: lookups
 * are round trips to the upstream server, slower than the in-process lookups the runtime's own default is made for.
 */
const proxyCheckTimeoutMs = 5_000;

/** How long closing waits for calls in flight to answer, in milliseconds. */
const closeGraceMs = 2_000;

/**
 * The guard runtime of a proxy, built from its options and warmed up (`GuardRuntime.warmUp`): the one place where a
 * proxy's runtime is made. Throws `guardLoadError` while an enforced policy's check cannot be loaded, since every call
 * it guards would be denied.
 *
 * @example
 * ```ts
 * const runtime = await proxyRuntime({ packs: ['packs/mcp-filesystem'] });
 * ```
 */
export async function proxyRuntime(options: GuardProxyOptions): Promise<GuardRuntime> {
  const packs = await Promise.all(options.packs.map((dir) => loadPack(dir)));
  const runtime = new GuardRuntime(packs, { timeoutMs: proxyCheckTimeoutMs, ...options.runtime });
  const failures = await runtime.loadFailures();
  if (failures.length > 0) {
    await runtime.close();
    throw guardLoadError(failures);
  }
  // Before the first call, so that no call pays for compiling the guard code.
  await runtime.warmUp();
  return runtime;
}

/** A result the agent sees in place of the tool's: an error carrying the reason. */
const refusal = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** The upstream's capabilities that the proxy passes on: tools, resources, prompts and completions. */
function passedCapabilities(upstream: ServerCapabilities): ServerCapabilities {
  return {
    tools: { listChanged: true },
    ...(upstream.resources === undefined ? {} : { resources: upstream.resources }),
    ...(upstream.prompts === undefined ? {} : { prompts: upstream.prompts }),
    ...(upstream.completions === undefined ? {} : { completions: upstream.completions }),
  };
}

/**
 * An MCP guard proxy: re-exposes an upstream MCP server's tools (names, schemas, annotations), resources, prompts and
 * completions, and decides every `tools/call` with the guard runtime before forwarding it. A denied call never
 * reaches the upstream: the client gets a tool result with `isError: true` carrying the feedback. A call the policy
 * wants a person to approve is put to the person through MCP elicitation when the client supports it, and refused
 * with the feedback otherwise. Lookups are the upstream's read-only tools.
 *
 * MCP carries no chat history, so the conversation the guards read is the proxy session's own: every call it
 * forwarded, with the upstream's result as a tool message. Policies that need what the user said therefore decide
 * from that alone; a person's consent reaches them through the `ask` effect and elicitation.
 *
 * @example
 * ```ts
 * const proxy = await GuardProxy.start({ command: 'mcp-server-filesystem', args: ['.'] }, {
 *   packs: ['packs/mcp-filesystem'],
 * });
 * await proxy.createServer().connect(new StdioServerTransport());
 * ```
 */
export class GuardProxy {
  /** Settles with the reason when the upstream connection closes. */
  readonly upstreamClosed: Promise<string>;
  private readonly upstream: Client;
  private readonly runtime: GuardRuntime;
  private readonly options: GuardProxyOptions;
  private readonly upstreamName: string;
  private readonly sessions = new Set<Server>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closedReason: string | undefined;
  /** The names of the upstream's read-only tools, listed on the first lookup and again after its tool list changes. */
  private readOnlyTools: Promise<Set<string>> | undefined;

  private constructor(upstream: Client, runtime: GuardRuntime, options: GuardProxyOptions, upstreamName: string) {
    this.upstream = upstream;
    this.runtime = runtime;
    this.options = options;
    this.upstreamName = upstreamName;
    this.upstreamClosed = new Promise((resolve) => {
      const previous = upstream.onclose;
      upstream.onclose = () => {
        previous?.();
        this.closedReason ??= `the upstream MCP server \`${upstreamName}\` closed the connection`;
        resolve(this.closedReason);
      };
    });
    const broadcast = (send: (server: Server) => Promise<void>) => async () => {
      await Promise.all([...this.sessions].map((server) => send(server).catch(() => {})));
    };
    upstream.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.readOnlyTools = undefined;
      return broadcast((server) => server.sendToolListChanged())();
    });
    upstream.setNotificationHandler(
      ResourceListChangedNotificationSchema,
      broadcast((server) => server.sendResourceListChanged()),
    );
    upstream.setNotificationHandler(
      PromptListChangedNotificationSchema,
      broadcast((server) => server.sendPromptListChanged()),
    );
    upstream.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
      broadcast((server) => server.sendResourceUpdated(notification.params))(),
    );
  }

  /**
   * Starts a proxy: loads the packs and builds the runtime first (a bad pack fails before any upstream starts), then
   * connects to the upstream, or takes a client already connected to it.
   */
  static async start(upstream: UpstreamTarget | Client, options: GuardProxyOptions): Promise<GuardProxy> {
    let proxy: GuardProxy | undefined;
    // Tools no pack knows are read-only when the upstream annotates them so (`runtime.unknownReadOnlyTool`).
    const isReadOnly = async (tool: string) => (await proxy?.upstreamReadOnlyTools())?.has(tool) ?? false;
    const runtime = await proxyRuntime({ ...options, runtime: { isReadOnly, ...options.runtime } });
    try {
      proxy =
        upstream instanceof Client
          ? new GuardProxy(upstream, runtime, options, upstream.getServerVersion()?.name ?? 'upstream')
          : new GuardProxy(await connectUpstream(upstream), runtime, options, describeUpstream(upstream));
      return proxy;
    } catch (error) {
      await runtime.close();
      throw error;
    }
  }

  /**
   * A server for one client session (stdio has one; Streamable HTTP one per session), with its own conversation.
   * Connect it to a transport.
   */
  createServer(): Server {
    const upstream = this.upstream;
    const info = upstream.getServerVersion();
    const instructions = upstream.getInstructions();
    const capabilities = passedCapabilities(upstream.getServerCapabilities() ?? {});
    const server = new Server(
      { name: `agentguard (${info?.name ?? this.upstreamName})`, version: info?.version ?? '0.0.0' },
      { capabilities, ...(instructions === undefined ? {} : { instructions }) },
    );
    const conversation = new ProxyConversation();
    this.sessions.add(server);
    server.onclose = () => this.sessions.delete(server);
    // The MCP SDK's receivers ignore a cancellation of request id 0 (typescript-sdk#2283), the id of the server's first
    // request: a ping takes it, so that an elicitation is withdrawn when the client cancels the call it belongs to.
    server.oninitialized = () => {
      server.ping().catch(() => {});
    };

    server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const answered = this.callTool(server, conversation, request.params, {
        requestId: extra.requestId,
        signal: extra.signal,
      });
      this.inFlight.add(answered);
      answered.then(
        () => this.inFlight.delete(answered),
        () => this.inFlight.delete(answered),
      );
      return answered;
    });
    if (capabilities.resources !== undefined) {
      server.setRequestHandler(ListResourcesRequestSchema, (request) => upstream.listResources(request.params));
      server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
        upstream.listResourceTemplates(request.params),
      );
      server.setRequestHandler(ReadResourceRequestSchema, (request) => upstream.readResource(request.params));
      if (capabilities.resources.subscribe === true) {
        server.setRequestHandler(SubscribeRequestSchema, (request) => upstream.subscribeResource(request.params));
        server.setRequestHandler(UnsubscribeRequestSchema, (request) => upstream.unsubscribeResource(request.params));
      }
    }
    if (capabilities.prompts !== undefined) {
      server.setRequestHandler(ListPromptsRequestSchema, (request) => upstream.listPrompts(request.params));
      server.setRequestHandler(GetPromptRequestSchema, (request) => upstream.getPrompt(request.params));
    }
    if (capabilities.completions !== undefined) {
      server.setRequestHandler(CompleteRequestSchema, (request) => upstream.complete(request.params));
    }
    return server;
  }

  /** Decides one call, asks the person when the policy says so, and forwards it only when it may run. */
  private async callTool(
    server: Server,
    conversation: ProxyConversation,
    params: CallToolRequest['params'],
    request: { requestId: string | number; signal: AbortSignal },
  ): Promise<CallToolResult> {
    if (this.closedReason !== undefined) return refusal(`${this.closedReason}; the call did not run`);
    const call: ToolCall = { id: conversation.nextCallId(), name: params.name, arguments: params.arguments ?? {} };
    const verdict = await this.runtime.check(call, {
      conversation: conversation.current(),
      invoker: this.lookups(),
      now: new Date(),
    });
    if (verdict.decision === 'deny') return refusal(feedbackFor(verdict));
    if (verdict.decision === 'ask') {
      const answer = await askPerson(server, call, verdict, {
        timeoutMs: this.options.askTimeoutMs ?? defaultAskTimeoutMs,
        relatedRequestId: request.requestId,
        signal: request.signal,
      });
      if (!answer.approved) {
        this.runtime.settleAsk(call, { answer: answer.answer, ran: false });
        return refusal(`${feedbackFor(verdict)}\n${answer.reason}`);
      }
      // Approved: the call is forwarded next, so it ran (whatever the upstream then answers).
      this.runtime.settleAsk(call, { answer: 'approved', ran: true });
    }
    let result: CallToolResult;
    try {
      result = (await this.upstream.callTool(params, undefined, { signal: request.signal })) as CallToolResult;
    } catch (error) {
      if (this.closedReason === undefined && !isConnectionClosed(error)) throw error;
      return refusal(
        `${this.closedReason ?? `the upstream MCP server \`${this.upstreamName}\` closed the connection`} while \`${call.name}\` ran; whether it took effect is unknown`,
      );
    }
    conversation.record(call, result);
    return result;
  }

  /**
   * The upstream's read-only tools (`readOnlyHint`), as the guards' lookups, and with `sameDisk` the proxy's own
   * `agentguard_real_path`; any other tool is refused.
   */
  private lookups(): ToolInvoker {
    return {
      invoke: async (tool, args) => {
        if (tool === realPathTool.name) {
          if (this.options.sameDisk !== true) {
            throw new Error(
              `\`${tool}\` is not answered: the proxy has no view of the upstream's disk (give it \`--same-disk\` when it runs beside the server)`,
            );
          }
          if (typeof args.path !== 'string') throw new Error(`\`${tool}\`: \`path\` must be a string`);
          return realPathOf(args.path);
        }
        if (!(await this.upstreamReadOnlyTools()).has(tool)) {
          throw new Error(`\`${tool}\` is not a read-only tool of the upstream MCP server`);
        }
        const result = (await this.upstream.callTool({ name: tool, arguments: args })) as CallToolResult;
        if (result.isError === true) throw new Error(resultText(result));
        return result.structuredContent ?? resultText(result);
      },
    };
  }

  /** The names of the upstream's tools annotated `readOnlyHint`, listed once until its tool list changes. */
  private upstreamReadOnlyTools(): Promise<Set<string>> {
    this.readOnlyTools ??= this.listReadOnlyTools();
    return this.readOnlyTools;
  }

  private async listReadOnlyTools(): Promise<Set<string>> {
    const names = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.upstream.listTools(cursor === undefined ? {} : { cursor });
      for (const tool of page.tools) if (tool.annotations?.readOnlyHint === true) names.add(tool.name);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return names;
  }

  /**
   * Lets the calls in flight answer (up to two seconds), then closes the client sessions, the upstream connection
   * (stopping a started upstream) and the runtime.
   */
  async close(): Promise<void> {
    this.closedReason ??= 'the proxy is shutting down';
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, closeGraceMs);
      }),
    ]);
    clearTimeout(timer);
    // The answers of settled calls are sent on the next turns of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([...this.sessions].map((server) => server.close().catch(() => {})));
    await this.upstream.close().catch(() => {});
    await this.runtime.close();
  }
}

function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
}
