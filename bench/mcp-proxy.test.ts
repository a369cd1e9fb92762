import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatMcpProxyBench, runMcpProxyBench } from './mcp-proxy.ts';

it('the MCP proxy benchmark times calls direct and through the proxy', { timeout: 120_000 }, async () => {
  const result = await runMcpProxyBench(3);
  assert.equal(result.calls, 3);
  assert.ok(result.write.proxied.p50 > 0 && result.write.direct.p50 > 0);
  assert.match(formatMcpProxyBench(result), /write_file \.env \(refused by the proxy\)/);
});
