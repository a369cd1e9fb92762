import assert from 'node:assert/strict';
import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, overFilesystem, type ProxyClient, textOf, throughProxy } from './test-proxy.ts';

/**
 * Equivalent forms of refused calls, through `agentguard mcp` in front of the real filesystem server: the rules read
 * each path as the server resolves it, with the proxy's view of the disk (`--same-disk`) and without it.
 */
for (const [label, extra] of [
  ['with --same-disk', ['--same-disk']],
  ['without a view of the disk', []],
] as const) {
  describe(`paths in canonical form, ${label}`, { timeout: 120_000 }, () => {
    let root: string;
    let proxy: ProxyClient;

    before(async () => {
      root = await mkdtemp(join(tmpdir(), 'agentguard-mcp-paths-'));
      await writeFile(join(root, '.env'), 'API_KEY=sk-live-123\n');
      await writeFile(join(root, 'notes.txt'), 'buy milk\n');
      await symlink('.env', join(root, 'innocent.txt'));
      await link(join(root, '.env'), join(root, 'hard.txt'));
      await mkdir(join(root, 'config'));
      await writeFile(join(root, 'config', '.env'), 'DB_PASSWORD=hunter2\n');
      await mkdir(join(root, 'src'));
      await writeFile(join(root, 'src', 'app.ts'), 'export {};\n');
      // Every elicitation approved: a refusal below is a deny, never a person's answer.
      proxy = await throughProxy([...extra, ...overFilesystem(root)], () => ({
        action: 'accept',
        content: { approve: true },
      }));
    });
    after(async () => {
      await proxy.client.close();
      await rm(root, { recursive: true, force: true });
    });

    const refused = async (tool: string, args: Record<string, unknown>, reason: RegExp) => {
      const result = await call(proxy.client, tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`);
      assert.match(textOf(result), reason);
      assert.match(textOf(result), /no_secrets_files/);
      return result;
    };
    const unchanged = async () => {
      assert.equal(await readFile(join(root, '.env'), 'utf8'), 'API_KEY=sk-live-123\n');
      assert.equal(await readFile(join(root, 'config', '.env'), 'utf8'), 'DB_PASSWORD=hunter2\n');
      assert.deepEqual((await readdir(root)).sort(), [
        '.env',
        'config',
        'hard.txt',
        'innocent.txt',
        'notes.txt',
        'src',
      ]);
    };

    it('refuses writing `id_rsa/.`, `server.pem/` and `.env.production/.`: no file is written', async () => {
      for (const [path, kind] of [
        [`${root}/id_rsa/.`, /a private key/],
        [`${root}/server.pem/`, /a key or certificate file/],
        [`${root}/.env.production/.`, /an environment file/],
        [`${root}/SERVER.PEM`, /a key or certificate file/],
        ['config/../.ENV.production', /an environment file/],
        [`${root}/id_ed25519.`, /a private key/],
        ['keys\\id_rsa', /a private key/],
      ] as const) {
        await refused('write_file', { path, content: 'secret\n' }, kind);
      }
      await unchanged();
    });

    it('refuses editing `.env/.`: `.env` is unchanged', async () => {
      const edits = [{ oldText: 'sk-live-123', newText: 'stolen' }];
      await refused('edit_file', { path: `${root}/.env/.`, edits }, /an environment file/);
      await unchanged();
    });

    it('refuses moving a file to `id_ed25519/`: nothing is created', async () => {
      await refused('move_file', { source: 'notes.txt', destination: `${root}/id_ed25519/` }, /a private key/);
      await unchanged();
    });

    it('refuses editing and writing `innocent.txt`, a link to `.env`, rather than asking: `.env` is unchanged', async () => {
      const edits = [{ oldText: 'sk-live-123', newText: 'stolen' }];
      await refused(
        'edit_file',
        { path: 'innocent.txt', edits },
        /`innocent\.txt` (really points|may be a link) to `[^`]*\.env`/,
      );
      const asked = proxy.elicitations.length;
      await refused('write_file', { path: 'innocent.txt', content: 'stolen\n' }, /an environment file/);
      assert.equal(proxy.elicitations.length, asked);
      // The server moves what a link points to: moving `innocent.txt` would move `.env`.
      await refused('move_file', { source: 'innocent.txt', destination: 'moved.txt' }, /an environment file/);
      await unchanged();
    });

    it('refuses moving `config`, a directory holding `config/.env`: it stays', async () => {
      await refused(
        'move_file',
        { source: 'config', destination: 'config2' },
        /`config` is a directory holding secrets files \(`config\/\.env`\)/,
      );
      await unchanged();
    });

    it('refuses reading secrets files by any tool and form; the content never comes back', async () => {
      for (const [tool, args] of [
        ['read_text_file', { path: '.env' }],
        ['read_text_file', { path: 'innocent.txt' }],
        ['read_text_file', { path: 'hard.txt' }],
        ['read_file', { path: `${root}/.env/` }],
        ['read_media_file', { path: 'config/../.ENV' }],
        ['read_multiple_files', { paths: ['notes.txt', 'config/.env'] }],
      ] as const) {
        const result = await refused(tool, args, /agents never read secrets files/);
        assert.doesNotMatch(textOf(result), /sk-live-123|hunter2/);
      }
    });

    it('lets ordinary work through: reading, editing and moving a directory without secrets', async () => {
      const read = await call(proxy.client, 'read_multiple_files', { paths: ['notes.txt', 'src/app.ts'] });
      assert.notEqual(read.isError, true, textOf(read));
      assert.match(textOf(read), /buy milk/);
      const edited = await call(proxy.client, 'edit_file', {
        path: 'notes.txt',
        edits: [{ oldText: 'milk', newText: 'oat milk' }],
      });
      assert.notEqual(edited.isError, true, textOf(edited));
      const moved = await call(proxy.client, 'move_file', { source: 'src', destination: 'lib' });
      assert.notEqual(moved.isError, true, textOf(moved));
      assert.equal(await readFile(join(root, 'lib', 'app.ts'), 'utf8'), 'export {};\n');
      await call(proxy.client, 'move_file', { source: 'lib', destination: 'src' });
    });
  });
}
