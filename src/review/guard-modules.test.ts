import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { importedModules } from './guard-modules.ts';

it("follows a guard's relative imports through its helpers, each once, and no package or text that only looks like one", async () => {
  const pack = await mkdtemp(join(tmpdir(), 'agentguard-guard-modules-'));
  await mkdir(join(pack, 'guards/lib'), { recursive: true });
  await mkdir(join(pack, 'guards/refund'), { recursive: true });
  const files: Record<string, string> = {
    'guards/refund/window.ts': [
      "import type { PolicyCheck } from 'agentguard';",
      "import type { RefundArgs } from '../../types.ts';",
      "import { days } from '../lib/dates.ts';",
      "import { orderOf } from '../lib/orders.ts';",
      "// import { nothing } from '../lib/commented.ts';",
      'const text = "import { no } from \'../lib/quoted.ts\'";',
      'export const check: PolicyCheck<RefundArgs> = () => undefined;',
    ].join('\n'),
    'guards/lib/dates.ts': "import { orderOf } from './orders.ts';\nexport const days = 1;",
    'guards/lib/orders.ts': "import { days } from './dates.ts';\nexport const orderOf = () => days;",
    'types.ts': 'export interface RefundArgs { order_id: string }',
    'guards/lib/commented.ts': 'export const nothing = 0;',
  };
  for (const [path, text] of Object.entries(files)) await writeFile(join(pack, path), text);
  const modules = await importedModules(pack, 'guards/refund/window.ts');
  assert.deepEqual(
    modules.map((module) => module.path),
    ['types.ts', 'guards/lib/dates.ts', 'guards/lib/orders.ts'],
  );
  assert.equal(modules[1]?.source, files['guards/lib/dates.ts']);
});

it('leaves out imports that would leave the pack', async () => {
  const pack = await mkdtemp(join(tmpdir(), 'agentguard-guard-modules-'));
  await mkdir(join(pack, 'guards'), { recursive: true });
  await writeFile(join(pack, '..', 'outside.ts'), 'export const secret = 1;');
  await writeFile(
    join(pack, 'guards/tool.ts'),
    "import { secret } from '../../outside.ts';\nexport const checks = {};",
  );
  assert.deepEqual(await importedModules(pack, 'guards/tool.ts'), []);
});
