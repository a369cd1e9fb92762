/**
 * agentguard's MCP guard proxy (`agentguard/mcp`): put guard packs in front of any MCP server. Kept apart from the
 * root entry so that only its users load the MCP SDK.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { connectUpstream, GuardProxy } from 'agentguard/mcp';
 * const upstream = await connectUpstream({ command: 'mcp-server-filesystem', args: ['/home/me/project'] });
 * const proxy = await GuardProxy.start(upstream, { packs: ['packs/mcp-filesystem'] });
 * await proxy.createServer().connect(new StdioServerTransport());
 * ```
 */

export { type Approval, askPerson } from './ask-person.ts';
export { GuardProxy, type GuardProxyOptions, proxyRuntime } from './guard-proxy.ts';
export { listenStreamableHttp, type ProxyListener } from './http-listener.ts';
export { ProxyConversation, resultText } from './proxy-conversation.ts';
export { connectUpstream, describeUpstream, type UpstreamTarget } from './upstream.ts';
