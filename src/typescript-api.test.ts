import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AgentGuardError } from './errors.ts';
import ts, { assertCompilerApi } from './typescript-api.ts';

it('accepts the TypeScript with a compiler API, and names what to install for one without (TypeScript 7)', () => {
  assertCompilerApi(ts);
  assert.throws(
    () => assertCompilerApi({ version: '7.0.2' }),
    (error: unknown) =>
      AgentGuardError.isInstance(error) &&
      error.code === 'missing_package' &&
      error.message ===
        'the installed `typescript` 7.0.2 has no compiler API, which agentguard uses: run `npm install typescript@5.9`',
  );
});
