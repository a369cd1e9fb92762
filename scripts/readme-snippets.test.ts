/**
 * Every code block of README.md runs as written, in order, in a fresh project (`npm init -y`) against the packed
 * tarball: TypeScript and JavaScript blocks (with the blocks marked `continue` after them) as files run by Node,
 * shell blocks by bash, their `npm install` lines installing the tarball in place of `agentguard` and the versions of
 * the frameworks this package supports. A block marked `skip` says why in the README, a block in another language
 * (`text`, `json`) is shown, not run; a snippet that fails names its line. Run: `npm run test:package` (it reaches
 * only the npm registry, for the frameworks).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServeProcess, startServingCli } from '../src/service/serve-process.ts';
import { npm, packTarball, root, run, versionOf } from './packed-project.ts';
import { readmeSnippets, type Snippet } from './readme-snippets.ts';

const snippets = readmeSnippets(await readFile(join(root, 'README.md'), 'utf8'));
const programLanguages = new Set(['ts', 'js']);
const shellLanguages = new Set(['sh', 'bash']);

/** A program (a block and the blocks that continue it) or a shell block, as run. */
interface Unit {
  first: Snippet;
  code: string;
}

/** The blocks as run: each program's blocks joined, a `continue` after anything but a program refused. */
function units(): Unit[] {
  const found: Unit[] = [];
  for (const snippet of snippets) {
    const last = found.at(-1);
    if (snippet.marker?.kind === 'continue') {
      assert.ok(
        last !== undefined && programLanguages.has(last.first.language) && last.first.language === snippet.language,
        `README.md:${snippet.line}: \`continue\` follows no ${snippet.language} block`,
      );
      last.code += `\n${snippet.code}`;
    } else {
      found.push({ first: snippet, code: snippet.code });
    }
  }
  return found;
}

/** The packages an `npm install` line of the README installs (none for another line). */
function installed(line: string): string[] {
  const words = line.replace(/#.*/, '').trim().split(/\s+/);
  if (words[0] !== 'npm' || words[1] !== 'install') return [];
  return words.slice(2).filter((word) => !word.startsWith('-'));
}

/** The README's install line nearest before `line` that installs packages, with its own line. */
function installBefore(line: number): { line: number; packages: string[] } | undefined {
  let nearest: { line: number; packages: string[] } | undefined;
  for (const snippet of snippets) {
    if (snippet.line > line || !shellLanguages.has(snippet.language) || snippet.marker?.kind === 'skip') continue;
    snippet.code.split('\n').forEach((text, at) => {
      const packages = installed(text);
      if (packages.length > 0) nearest = { line: snippet.line + 1 + at, packages };
    });
  }
  return nearest;
}

/** The packages a program imports: `agentguard` for `agentguard/testing`, none for `node:` modules. */
function importedPackages(code: string): string[] {
  const specifiers = [...code.matchAll(/\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
  const packages = specifiers
    .filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('.'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
  return [...new Set(packages)];
}

describe('the README snippet markers', () => {
  it('are read from the comment before a block, and an unknown one is refused with its line', () => {
    const blocks = readmeSnippets(
      '## A\n\n<!-- snippet: skip (needs an API key) -->\n\n```sh\nx\n```\ntext\n<!-- snippet: continue -->\n```ts\ny\n```\n',
    );
    assert.deepEqual(
      blocks.map(({ line, language, marker, section }) => ({ line, language, marker, section })),
      [
        { line: 5, language: 'sh', marker: { kind: 'skip', reason: 'needs an API key' }, section: 'A' },
        { line: 10, language: 'ts', marker: { kind: 'continue' }, section: 'A' },
      ],
    );
    assert.equal(readmeSnippets('<!-- snippet: serving -->\ntext\n```sh\nx\n```\n')[0]?.marker, undefined);
    assert.throws(
      () => readmeSnippets('<!-- snippet: later -->\n```sh\nx\n```\n'),
      /line 1: unknown snippet marker `later`/,
    );
  });
});

describe('every README snippet, run as written in a fresh project against the packed tarball', () => {
  let work = '';
  let project = '';
  let tarball = '';
  const serving: { section: string; process: ServeProcess }[] = [];
  // Node and npm as the project's user has them: this Node first on the PATH.
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'agentguard-readme-'));
    project = join(work, 'project');
    await mkdir(project);
    npm(['init', '-y'], project);
    tarball = packTarball(work);
  });

  const stopServing = async (section?: string) => {
    for (const server of serving.filter((server) => server.section !== section)) {
      serving.splice(serving.indexOf(server), 1);
      await server.process.stop();
    }
  };

  after(async () => {
    await stopServing();
    if (work !== '') await rm(work, { recursive: true, force: true });
  });

  /** A shell block with its install lines installing the tarball and the supported framework versions. */
  const shell = (code: string) =>
    code
      .split('\n')
      .map((text) => {
        const packages = installed(text);
        if (packages.length === 0) return text;
        const specs = packages.map((name) => {
          if (name === 'agentguard') return tarball;
          const range = versionOf(name);
          return name.slice(1).includes('@') || range === 'latest' ? name : `${name}@${range}`;
        });
        return `npm install --no-audit --no-fund --prefer-offline ${specs.map((spec) => `'${spec}'`).join(' ')}`;
      })
      .join('\n');

  for (const { first, code } of units()) {
    const where = `README.md:${first.line}`;
    const name = `${where} (${first.language || 'no language'}, ${first.section || 'top'})`;
    if (first.marker?.kind === 'skip') {
      it(name, { skip: first.marker.reason }, () => {});
      continue;
    }
    if (!programLanguages.has(first.language) && !shellLanguages.has(first.language)) {
      it(name, { skip: `not code: shown text, as its language \`${first.language}\` says` }, () => {});
      continue;
    }
    it(name, async () => {
      await stopServing(first.section);
      if (programLanguages.has(first.language)) {
        const install = installBefore(first.line);
        const installLine = install === undefined ? 'none' : `README.md:${install.line}`;
        for (const imported of importedPackages(code)) {
          assert.ok(
            install?.packages.includes(imported),
            `${where}: imports \`${imported}\`, which the install line before it (${installLine}) does not install`,
          );
        }
        const file = `readme-${first.line}.${first.language}`;
        await writeFile(join(project, file), code);
        const result = run(process.execPath, [file], project, env);
        assert.equal(result.status, 0, `${where}: \`node ${file}\` failed:\n${result.stdout}${result.stderr}`);
      } else if (first.marker?.kind === 'serving') {
        const commands = code.split('\n').filter((text) => text.trim() !== '' && !text.startsWith('#'));
        const [command = ''] = commands;
        const args = command.replace(/#.*/, '').trim().split(/\s+/);
        assert.ok(
          commands.length === 1 && args[0] === 'npx' && args[1] === 'agentguard',
          `${where}: a serving block is one \`npx agentguard\` command`,
        );
        const bin = join(project, 'node_modules', '.bin', 'agentguard');
        const started = await startServingCli(args.slice(2), { printed: /(https?:\/\/\S+)/, cli: bin, cwd: project });
        serving.push({ section: first.section, process: started });
      } else {
        // The script's line 2 is the block's first, the line after the fence: a failure names its README line.
        const trap = `trap 'echo "README.md:$((LINENO + ${first.line - 1})) failed (exit $?)" >&2' ERR`;
        const result = run('bash', ['-e', '-o', 'pipefail', '-c', `${trap}\n${shell(code)}`], project, env);
        assert.equal(result.status, 0, `${where}: the block failed:\n${result.stdout}${result.stderr}`);
      }
    });
  }
});
