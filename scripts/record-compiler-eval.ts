/**
 * Builds a recording for `npm run eval:compiler -- --replay <file>` from the exchange folders of earlier model runs
 * (`*-exchange.tar.gz`: every request and answer): each request of the current prompts is answered with the answer
 * the chat model gave to the earlier prompt of the same step for the same tool, policy and example, reshaped where a
 * step now asks for several answers at once (examples per tool, test cases per policy). The recording says so in its
 * `source`: these are a chat model's answers to earlier prompt versions, re-keyed, not answers to the current prompts.
 *
 * `node scripts/record-compiler-eval.ts --from <model-runs dir> --out <recording> [--map <tools>] [--generate <tools>]`
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RecordingModel } from '../src/llm/cassette.ts';
import { estimateTokens, type LanguageModel, type ModelRequest } from '../src/llm/language-model.ts';
import { extractJson } from '../src/llm/structured.ts';
import { runCompilerEvaluation } from './eval-compiler.ts';

/** One earlier request and its answer. */
interface Exchange {
  step: string;
  prompt: string;
  answer: unknown;
}

/** Reads every request and answer of the exchange archives in `dir`. */
async function readExchanges(dir: string): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for (const archive of (await readdir(dir)).filter((name) => name.endsWith('-exchange.tar.gz')).sort()) {
    const into = await mkdtemp(join(tmpdir(), 'agentguard-exchange-'));
    execFileSync('tar', ['-xzf', join(dir, archive), '-C', into]);
    const folder = join(into, 'ex');
    for (const name of (await readdir(folder)).filter((file) => file.endsWith('.request.md')).sort()) {
      const request = await readFile(join(folder, name), 'utf8');
      const answer = await readFile(join(folder, name.replace('.request.md', '.answer.md')), 'utf8');
      exchanges.push({
        step: name.replace(/^\d+-/, '').replace(/@v\d+\.request\.md$/, ''),
        prompt: request.slice(request.indexOf('## user')),
        answer: extractJson(answer),
      });
    }
  }
  return exchanges;
}

const toolOf = (prompt: string) =>
  /The tool(?: to map| being guarded)?:\n```json\n\{\n\s*"name": "(\w+)"/.exec(prompt)?.[1];
const policyIdOf = (prompt: string) => /The policy:\n```json\n\{\n\s*"id": "([^"]+)"/.exec(prompt)?.[1];
const policyNameOf = (prompt: string) => /The policy:\n```json\n\{\n\s*"name": "([^"]+)"/.exec(prompt)?.[1];
const jsonAfter = (prompt: string, heading: string) => {
  const block = new RegExp(`${heading}\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(prompt)?.[1];
  return block === undefined ? undefined : (JSON.parse(block) as unknown);
};

/** Answers current requests from the earlier exchanges. */
function rekeyed(exchanges: readonly Exchange[]): LanguageModel {
  const used = new Set<Exchange>();
  const take = (match: (exchange: Exchange) => boolean, what: string) => {
    const found = exchanges.find((exchange) => !used.has(exchange) && match(exchange));
    if (found === undefined) throw new Error(`no earlier answer for ${what}`);
    used.add(found);
    return found.answer;
  };
  const answer = (request: ModelRequest): unknown => {
    const prompt = request.messages[0]?.content ?? '';
    const step = request.step.replace(/@v\d+$/, '');
    const tool = toolOf(prompt);
    if (step === 'map.create_examples') {
      const policies = (jsonAfter(prompt, 'The policies, by index:') ?? []) as { index: number; name: string }[];
      const have = prompt.includes('have fewer than');
      const wanted = have ? ((jsonAfter(prompt, 'examples of a kind:') ?? []) as { index: number }[]) : policies;
      return {
        examples: wanted.map(({ index }) => {
          const name = policies.find((policy) => policy.index === index)?.name;
          return {
            index,
            ...(take(
              (exchange) =>
                exchange.step === step &&
                toolOf(exchange.prompt) === tool &&
                policyNameOf(exchange.prompt) === name &&
                exchange.prompt.includes('Examples so far') === have,
              `the examples of ${tool} / ${name}`,
            ) as object),
          };
        }),
      };
    }
    if (step.startsWith('map.')) {
      return take((exchange) => exchange.step === step && toolOf(exchange.prompt) === tool, `${step} of ${tool}`);
    }
    const policy = policyIdOf(prompt);
    if (step === 'generate.test_cases') {
      const examples = (jsonAfter(prompt, 'The examples, by index:') ?? []) as {
        index: number;
        kind: string;
        example: string;
      }[];
      return {
        cases: examples.map(({ index, kind, example }) => ({
          index,
          ...(take(
            (exchange) =>
              exchange.step === 'generate.test_case' &&
              policyIdOf(exchange.prompt) === policy &&
              exchange.prompt.includes(`The example (${kind}):\n${example}\n\n`),
            `the ${kind} case of ${policy}: ${example}`,
          ) as object),
        })),
      };
    }
    if (step === 'generate.repair') {
      const file = /The module `([^`]+)`/.exec(prompt)?.[1];
      return take(
        (exchange) => exchange.step === step && exchange.prompt.includes(`The module \`${file}\``),
        `a repair of ${file}`,
      );
    }
    return take((exchange) => exchange.step === step && policyIdOf(exchange.prompt) === policy, `${step} of ${policy}`);
  };
  return {
    id: 'rekeyed-model-runs',
    complete: async (request) => {
      const text = JSON.stringify(answer(request));
      const asked = [request.system, ...request.messages.map((message) => message.content)].join('\n');
      return {
        text,
        usage: { inputTokens: estimateTokens(asked), outputTokens: estimateTokens(text), estimated: true },
      };
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      out: { type: 'string' },
      map: { type: 'string' },
      generate: { type: 'string' },
    },
  });
  if (values.from === undefined || values.out === undefined) {
    throw new Error('usage: node scripts/record-compiler-eval.ts --from <model-runs dir> --out <recording>');
  }
  const model = new RecordingModel(
    rekeyed(await readExchanges(values.from)),
    "a chat model's answers to earlier prompt versions (exchange runs of the compiler), re-keyed onto the current prompts by step, tool, policy and example; not answers to the current prompts",
  );
  const report = await runCompilerEvaluation(
    [
      ...(values.map === undefined ? [] : ['--map', values.map]),
      ...(values.generate === undefined ? [] : ['--generate', values.generate]),
    ],
    model,
  );
  await model.save(values.out);
  process.stdout.write(`${report}\n\nrecorded ${values.out}\n`);
}
