/**
 * agentguard's MCP guard proxy (`agentguard/mcp`): put guard packs in front of any MCP server. Kept apart from the
 * root entry so that only its users load the MCP SDK.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { GuardProxy } from 'agentguard/mcp';
 * const proxy = await GuardProxy.start(
 *   { command: 'mcp-server-filesystem', args: ['/home/me/project'] },
 *   { packs: ['packs/mcp-filesystem'] },
 * );
 * await proxy.createServer().connect(new StdioServerTransport());
 * ```
 */

export { GuardProxy, type GuardProxyOptions, proxyRuntime } from './guard-proxy.ts';
export { listenStreamableHttp, type ProxyListener } from './http-listener.ts';
export { type RealPath, realPathOf, realPathTool } from './real-path.ts';
export type { UpstreamTarget } from './upstream.ts';
