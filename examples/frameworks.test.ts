import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');

/** The README's section of a framework: its install line and its TypeScript snippets. */
function section(title: string): { install: string; snippets: string[] } {
  const start = readme.indexOf(`### ${title}\n`);
  assert.notEqual(start, -1, `README.md has no section ${title}`);
  const text = readme.slice(start, readme.indexOf('\n#', start + 1));
  const install = /```sh\n(.*)\n```/.exec(text)?.[1] ?? '';
  const snippets = [...text.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((match) => match[1] ?? '');
  return { install, snippets };
}

function run(example: string): string {
  const result = spawnSync(process.execPath, ['--conditions=agentguard-source', example], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

const examples = [
  {
    title: 'Vercel AI SDK',
    file: 'examples/ai-sdk.ts',
    install: 'npm install agentguard ai zod',
    quoted: true,
    output:
      /^cancel_reservation ran: false\nthe model was told: The call to `cancel_reservation` was blocked[\s\S]*cancel\.eligibility/,
  },
  {
    title: 'OpenAI Agents SDK',
    file: 'examples/openai-agents.ts',
    install: 'npm install agentguard @openai/agents zod',
    quoted: false,
    output:
      /^waiting for approval: cancel_reservation: [\s\S]*cancel\.eligibility[\s\S]*\ncancel_reservation ran: false\ncancel_reservation ran: true\n/,
  },
  {
    title: 'LangChain.js',
    file: 'examples/langchain.ts',
    install: 'npm install agentguard langchain @langchain/core @langchain/langgraph zod',
    quoted: true,
    output:
      /^cancel_reservation ran: false\nthe model was told: The call to `cancel_reservation` was blocked[\s\S]*cancel\.user_confirmation/,
  },
];

describe('the framework examples', () => {
  for (const example of examples) {
    it(`${example.file} runs, and the README's ${example.title} section names it${example.quoted ? ' and is it' : ''}`, async () => {
      assert.match(run(example.file), example.output);
      const { install, snippets } = section(example.title);
      assert.equal(install, example.install);
      assert.equal(snippets.length, 2);
      const source = await readFile(new URL(`../${example.file}`, import.meta.url), 'utf8');
      for (const snippet of example.quoted ? snippets : []) {
        assert.ok(source.includes(snippet), `README's ${example.title} snippet is not in ${example.file}:\n${snippet}`);
      }
      assert.ok(readme.includes(`node ${example.file}`));
    });
  }
});

describe('the examples', () => {
  it("import only agentguard's public entry points, the frameworks and each other, never the package's sources", async () => {
    const files = (await readdir(new URL('.', import.meta.url))).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    assert.ok(files.length >= 5);
    for (const file of files) {
      const source = await readFile(new URL(file, import.meta.url), 'utf8');
      for (const [, specifier = ''] of source.matchAll(/ from '([^']+)'/g)) {
        const local = specifier.startsWith('.');
        assert.ok(!local || /^\.\/[\w-]+\.ts$/.test(specifier), `${file} imports ${specifier}, outside the examples`);
      }
    }
  });
});
