/**
 * How long a person has to approve a call by default: 50 s, under the 60 s an MCP SDK client waits for a `tools/call`
 * by default, so the agent gets the proxy's answer (not approved, timed out) rather than its own client's timeout.
 * Raise it (`--ask-timeout`) only for clients that wait longer. Apart from the proxy, so that reading it loads no MCP SDK.
 *
 * @example
 * ```ts
 * const proxy = new GuardProxy(upstream, { packs, askTimeoutMs: 2 * defaultAskTimeoutMs });
 * ```
 */
export const defaultAskTimeoutMs = 50_000;
