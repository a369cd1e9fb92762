import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { checkTimeZone } from '../compiler/domain-helpers.ts';
import { initPack } from '../compiler/init-pack.ts';
import { readToolSpecs } from '../tools/read-tool-specs.ts';

/** `agentguard init`: scaffolds a guard pack to write by hand. */
export async function initCommand(
  dir: string,
  options: { tools: string; policy?: string; domain?: string; readOnly?: string; timeZone?: string },
): Promise<void> {
  const read = await readToolSpecs(
    options.tools,
    options.readOnly === undefined ? {} : { readOnly: options.readOnly.split(',') },
  );
  const written = await initPack({
    dir,
    domain: options.domain ?? basename(dir),
    tools: read.tools,
    ...(options.policy === undefined ? {} : { policyDocument: await readFile(options.policy, 'utf8') }),
    ...(options.timeZone === undefined ? {} : { timeZone: checkTimeZone(options.timeZone) }),
  });
  const lookups = read.tools.filter((tool) => tool.readOnly).map((tool) => tool.name);
  const guarded = read.tools.filter((tool) => !tool.readOnly).map((tool) => tool.name);
  const lines = [
    `wrote ${written.length} files to ${dir}`,
    `guarded tools (each refuses every call until its policy is written): ${guarded.join(', ') || 'none'}`,
    `lookups the guards may call: ${lookups.join(', ') || 'none'}`,
  ];
  if (read.guessed.length > 0) {
    lines.push(
      `read-only flags guessed from tool names (set them with --read-only): ${read.tools
        .filter((tool) => read.guessed.includes(tool.name))
        .map((tool) => `${tool.name}=${tool.readOnly}`)
        .join(', ')}`,
    );
  }
  lines.push(
    'next: write each policy in spec/<tool>.json, its check in guards/<tool>/, its cases in tests/<tool>.cases.json,',
    `then: node --test '${join(dir, 'tests')}/*.test.ts' and agentguard check --pack ${dir} --call call.json (see docs/guard-packs.md)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}
