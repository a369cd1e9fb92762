import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, overFilesystem, type ProxyClient, textOf, throughProxy } from './test-proxy.ts';

/**
 * Links inside the project folder, through `agentguard mcp` in front of the real filesystem server: a write, edit,
 * folder or move through a link whose target lies outside the folder is refused by the pack's own rule, as the same
 * target written directly is, with the proxy's view of the disk (`--same-disk`) and without it; new files and links
 * that stay inside go through.
 */
for (const [label, extra] of [
  ['with --same-disk', ['--same-disk']],
  ['without a view of the disk', []],
] as const) {
  describe(`links that leave the project folder, ${label}`, { timeout: 120_000 }, () => {
    let base: string;
    let root: string;
    let proxy: ProxyClient;

    before(async () => {
      base = await realpath(await mkdtemp(join(tmpdir(), 'agentguard-mcp-links-')));
      root = join(base, 'project');
      await mkdir(join(root, 'src'), { recursive: true });
      await writeFile(join(root, 'notes.txt'), 'buy milk\n');
      await writeFile(join(base, 'outside.txt'), 'untouched\n');
      await mkdir(join(base, 'elsewhere'));
      await symlink(join(base, 'outside.txt'), join(root, 'outside-link.txt'));
      await symlink(base, join(root, 'up'));
      await symlink(join(base, 'elsewhere'), join(root, 'away'));
      await symlink(join(root, 'src'), join(root, 'code'));
      // Every elicitation approved: a refusal below is a deny, never a person's answer.
      proxy = await throughProxy([...extra, ...overFilesystem(root)], () => ({
        action: 'accept',
        content: { approve: true },
      }));
    });
    after(async () => {
      await proxy.client.close();
      await rm(base, { recursive: true, force: true });
    });

    const refused = async (tool: string, args: Record<string, unknown>) => {
      const result = await call(proxy.client, tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`);
      assert.match(textOf(result), /inside_project_folder/, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`);
    };
    const allowed = async (tool: string, args: Record<string, unknown>) => {
      const result = await call(proxy.client, tool, args);
      assert.notEqual(result.isError, true, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`);
    };

    it('refuses writing, editing, creating and moving through a link to outside, as the target written directly', async () => {
      const edits = [{ oldText: 'untouched', newText: 'changed' }];
      await refused('write_file', { path: join(base, 'outside.txt'), content: 'changed\n' });
      await refused('write_file', { path: 'outside-link.txt', content: 'changed\n' });
      await refused('edit_file', { path: `${root}/outside-link.txt`, edits });
      await refused('edit_file', { path: 'up/outside.txt', edits });
      await refused('write_file', { path: 'up/new.txt', content: 'x\n' });
      await refused('create_directory', { path: 'away/build' });
      await refused('move_file', { source: 'notes.txt', destination: 'away/notes.txt' });
      await refused('move_file', { source: 'up/outside.txt', destination: 'outside.txt' });
      assert.equal(await readFile(join(base, 'outside.txt'), 'utf8'), 'untouched\n');
      assert.equal(await readFile(join(root, 'notes.txt'), 'utf8'), 'buy milk\n');
    });

    it('lets new files, new folders and links that stay inside through', async () => {
      await allowed('write_file', { path: 'src/new.ts', content: 'export {};\n' });
      await allowed('write_file', { path: 'code/linked.ts', content: 'export {};\n' });
      await allowed('create_directory', { path: `${root}/build/out` });
      await allowed('move_file', { source: 'src/new.ts', destination: 'build/new.ts' });
      assert.equal(await readFile(join(root, 'src', 'linked.ts'), 'utf8'), 'export {};\n');
      assert.equal(await readFile(join(root, 'build', 'new.ts'), 'utf8'), 'export {};\n');
    });
  });
}
