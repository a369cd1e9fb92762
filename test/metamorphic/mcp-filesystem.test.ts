/**
 * Metamorphic suite of the filesystem pack, against the real filesystem server on a temporary project folder that
 * holds secrets files: the pack's test cases (their folder rebuilt in it) and calls on the secrets files, each with
 * other spellings of its paths, a symbolic link inside the folder, the folder above a moved file, and its arguments'
 * keys in another order. No variant may be decided less strictly than the call it respells.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Conversation, GuardRuntime, loadPack, type ToolCall, type ToolInvoker } from 'agentguard';
import { realPathOf, realPathTool } from 'agentguard/mcp';
import { filesystemServer, packDir } from '../../scripts/mcp-filesystem-build.ts';
import { resultText } from '../../src/mcp/proxy-conversation.ts';
import { withKeysReordered } from './argument-order.ts';
import { recased, respelt, throughLink } from './path-variants.ts';
import { draw, size } from './sampling.ts';
import { type Decided, decided, reportSurvey, Survey } from './survey.ts';

/** The folder the pack's test cases name as the project folder. */
const casesFolder = '/home/dev/project';

/** The secrets files of the project folder, and ordinary files beside them. */
const secrets = ['.env', '.env.production', 'id_rsa', 'id_ed25519', 'server.pem', 'config/.env'];
const ordinary = ['notes.txt', 'src/index.ts', 'docs/guide.md', 'config/settings.json'];

/** A test case of the pack, as its `tests/*.cases.json` holds it. */
interface TestCase {
  tool: string;
  policy: string;
  arguments: Record<string, unknown>;
  lookups?: { tool: string; arguments: Record<string, unknown>; result?: unknown }[];
}

/** The arguments of the filesystem tools that hold a path. */
const pathKeys = ['path', 'source', 'destination'] as const;

/**
 * Where the guards learn where a path really points: from the server's own tools (a proxy's default), or also from
 * the proxy's view of the disk (`--same-disk`, the `agentguard_real_path` lookup). Both are held to the relation.
 */
const modes = [
  { mode: 'server tools', sameDisk: false },
  { mode: 'same disk', sameDisk: true },
];

for (const { mode, sameDisk } of modes) {
  describe(`metamorphic: mcp-filesystem, ${mode} (${size} variants of each kind per input)`, async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'agentguard-metamorphic-')));
    const root = join(base, 'project');
    await mkdir(root);
    const client = new Client({ name: 'agentguard-metamorphic', version: '0.1.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [filesystemServer, root],
        cwd: root,
        stderr: 'ignore',
      }),
    );
    /** The server's read-only tools as the guards' lookups, and with `sameDisk` the proxy's own, as the proxy gives them. */
    const invoker: ToolInvoker = {
      async invoke(tool, args) {
        if (sameDisk && tool === realPathTool.name) return realPathOf(String(args.path));
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        if (result.isError === true) throw new Error(resultText(result));
        return result.structuredContent ?? resultText(result);
      },
    };
    const runtime = new GuardRuntime([await loadPack(packDir)], { timeoutMs: 5_000 });
    after(async () => {
      await runtime.close();
      await client.close();
      await rm(base, { recursive: true, force: true });
    });

    /** Empties the project folder and writes the given files into it. */
    async function project(files: readonly string[]): Promise<void> {
      await rm(root, { recursive: true, force: true });
      await mkdir(root);
      for (const file of files) {
        await mkdir(posix.dirname(posix.join(root, file)), { recursive: true });
        await writeFile(posix.join(root, file), `${file}\n`);
      }
    }

    const decide = async (call: ToolCall, policy?: string): Promise<Decided> =>
      decided(await runtime.check(call, { conversation: new Conversation([]), invoker, now: new Date() }), policy);

    const survey = new Survey(`mcp-filesystem (${mode})`);

    /** Varies one call on the folder as it stands; `policy` reads the decision on one policy (a test case's). */
    async function varyCall(name: string, call: ToolCall, policy?: string): Promise<void> {
      survey.inputs++;
      const original = await decide(call, policy);
      const check = async (kind: string, args: Record<string, unknown>) => {
        survey.record(kind, original, await decide({ ...call, arguments: args }, policy), () => {
          return `${name}: ${call.name} ${JSON.stringify(call.arguments)} as ${JSON.stringify(args)}`;
        });
      };
      for (const args of draw(withKeysReordered(call.arguments), `${name} arguments.order`)) {
        await check('arguments.order', args);
      }
      for (const key of pathKeys) {
        const path = call.arguments[key];
        if (typeof path !== 'string') continue;
        for (const spelt of draw(respelt(path, root), `${name} ${key} path.spelling`)) {
          await check('path.spelling', { ...call.arguments, [key]: spelt });
        }
        // On a case-sensitive file system a changed case names another file, which may not exist: an ask for
        // overwriting rests on the file existing, so only the other decisions are held to the changed case.
        if (original.decision !== 'ask') {
          for (const changed of draw(recased(path), `${name} ${key} path.case`)) {
            await check('path.case', { ...call.arguments, [key]: changed });
          }
        }
        const linked = await throughLink(path, root);
        if (linked !== undefined) await check('path.symlink', { ...call.arguments, [key]: linked });
      }
      const { source, destination } = call.arguments;
      if (
        call.name === 'move_file' &&
        typeof source === 'string' &&
        typeof destination === 'string' &&
        posix.basename(source) === posix.basename(destination) &&
        posix.dirname(posix.resolve(root, source)) !== root &&
        posix.dirname(source) !== posix.dirname(destination)
      ) {
        // Moving the folder a file lies in moves the file to the same place.
        await check('path.folder', { source: posix.dirname(source), destination: posix.dirname(destination) });
      }
    }

    const casesDir = join(packDir, 'tests');
    for (const file of (await readdir(casesDir)).filter((name) => name.endsWith('.cases.json')).sort()) {
      const cases = JSON.parse(await readFile(join(casesDir, file), 'utf8')) as TestCase[];
      for (const [index, testCase] of cases.entries()) {
        const args = JSON.parse(JSON.stringify(testCase.arguments).replaceAll(casesFolder, root)) as Record<
          string,
          unknown
        >;
        // The files the case says exist, and the file a move takes, when they lie in the project folder.
        const existing = (testCase.lookups ?? [])
          .filter((lookup) => lookup.tool === 'get_file_info' && lookup.result !== undefined)
          .map((lookup) => lookup.arguments.path);
        if (testCase.tool === 'move_file') existing.push(args.source);
        const inside = existing
          .filter((path): path is string => typeof path === 'string')
          .map((path) => posix.relative(root, posix.resolve(root, path.replaceAll(casesFolder, root))))
          .filter((path) => path !== '' && !path.startsWith('..'));
        await project(inside);
        await varyCall(
          `case ${file}[${index}] ${testCase.policy}`,
          { id: 'case', name: testCase.tool, arguments: args },
          testCase.policy,
        );
      }
    }

    const edits = [{ oldText: 'a', newText: 'b' }];
    const calls: Record<string, unknown>[] = [
      ...secrets.flatMap((file) => [
        { tool: 'write_file', path: posix.join(root, file), content: 'x\n' },
        { tool: 'write_file', path: file, content: 'x\n' },
        { tool: 'edit_file', path: posix.join(root, file), edits },
        { tool: 'read_text_file', path: posix.join(root, file) },
      ]),
      { tool: 'move_file', source: 'config/.env', destination: 'config2/.env' },
      {
        tool: 'move_file',
        source: posix.join(root, 'config/settings.json'),
        destination: posix.join(root, 'config2/settings.json'),
      },
      { tool: 'write_file', path: posix.join(root, 'notes.txt'), content: 'x\n' },
      { tool: 'write_file', path: 'docs/new-page.md', content: 'x\n' },
      { tool: 'edit_file', path: 'src/index.ts', edits },
      { tool: 'create_directory', path: posix.join(root, 'build') },
      { tool: 'create_directory', path: '../elsewhere' },
    ];
    for (const [index, { tool, ...args }] of calls.entries()) {
      await project([...secrets, ...ordinary]);
      await varyCall(`call ${index}`, { id: `call_${index}`, name: String(tool), arguments: args });
    }

    reportSurvey(survey);

    it('refuses every tool that reads a secrets file ("Keep secrets out of reach")', async () => {
      await project([...secrets, ...ordinary]);
      const read: string[] = [];
      for (const file of secrets) {
        const path = posix.join(root, file);
        for (const [tool, args] of [
          ['read_text_file', { path }],
          ['read_file', { path }],
          ['read_multiple_files', { paths: [path] }],
        ] as const) {
          const { decision } = await decide({ id: 'read', name: tool, arguments: args });
          if (decision !== 'deny') read.push(`${tool} ${file}: ${decision}`);
        }
      }
      assert.deepEqual(read, []);
    });
  });
}
