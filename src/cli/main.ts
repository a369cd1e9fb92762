#!/usr/bin/env node
import { Command, Option } from 'commander';
import { AgentGuardError } from '../errors.ts';
import { defaultAskTimeoutMs } from '../mcp/ask-timeout.ts';
import { importOptional } from '../optional-package.ts';

/** The words that run a command, e.g. `agentguard compile build`. */
function commandLine(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * A command's action, whose module (and so every package it needs) loads only when the command runs: a command that
 * needs an optional package left out of the install fails naming it, and the other commands keep working.
 */
const lazily =
  (load: () => Promise<(...args: never[]) => unknown>) =>
  async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const action = await importOptional(`\`${commandLine(command)}\``, load);
    await action(...(args as never[]));
  };

/** Collects a repeatable option's values in the order given. */
const collect = (value: string, values: string[] = []) => [...values, value];

const program = new Command('agentguard')
  .description('Guards that run before every tool call of an LLM agent')
  .showHelpAfterError();

program
  .command('replay')
  .description('Replay recorded agent runs through a guard pack and report every verdict')
  .requiredOption('--pack <dir>', 'guard pack folder')
  .requiredOption('--trajectories <file>', 'tau-bench trajectory file (JSON list of {task_id, trial, reward, traj})')
  .requiredOption('--out <file>', 'where to write one JSON line per tool call')
  .option('--json', 'print the summary as JSON')
  .option('--audit <target>', 'append every verdict to this audit log: a SQLite file or a postgres:// URL')
  .option(
    '--lookups <source>',
    "what answers the guards' lookups: the agent's backend (an http(s) URL taking POST {tool, arguments}), a lookup records file, or tau-airline (default: the shipped data of the pack's domain)",
  )
  .action(lazily(async () => (await import('./replay-command.ts')).replayCommand));

program
  .command('check')
  .description('Decide one tool call; prints the verdict as JSON. Exit code 0 allow, 2 deny, 3 ask')
  .requiredOption('--pack <dir>', 'guard pack folder')
  .requiredOption('--call <file>', 'the call: {"name", "arguments", "id"?} or an OpenAI tool call')
  .option('--conversation <file>', 'the conversation before the call, as OpenAI chat messages')
  .option(
    '--now <time>',
    "the policy's clock, with an offset, e.g. 2024-05-15T15:00:00-05:00 (default: the lookups' domain clock, else the pack's, else now)",
  )
  .option(
    '--lookups <source>',
    "what answers the guards' lookups: the agent's backend (an http(s) URL taking POST {tool, arguments}), a lookup records file, or tau-airline for the shipped data (default: none, so a guard that needs one denies)",
  )
  .addOption(
    new Option('--unknown-tool <decision>', 'decision for tools no pack knows').choices(['allow', 'deny', 'ask']),
  )
  .option('--audit <target>', 'append the verdict to this audit log: a SQLite file or a postgres:// URL')
  .action(lazily(async () => (await import('./check-command.ts')).checkCommand));

program
  .command('init')
  .description('Scaffold a guard pack to write by hand: types from the tool specs, a spec, guard and cases per tool')
  .argument('<dir>', 'the pack folder to write (new or empty)')
  .requiredOption(
    '--tools <file>',
    'tool specs: a JSON Schema tool list, OpenAI tools, OpenAPI 3 or an MCP tools/list result',
  )
  .option('--policy <file>', 'the policy document to copy to policy.md (default: a stub)')
  .option('--domain <name>', "the domain name in the manifest (default: the folder's name)")
  .option(
    '--read-only <names>',
    'comma-separated read-only lookup tools (default: from the file, else from tool names)',
  )
  .option('--time-zone <offset>', 'the zone of timestamps without one, for timeOf in guards/lib (default Z)')
  .action(lazily(async () => (await import('./init-command.ts')).initCommand));

const compile = program.command('compile').description('Compile a policy document and tool specs into a guard pack');
const modelOptions = (command: Command) =>
  command
    .requiredOption('--out <dir>', 'output folder')
    .option(
      '--model <name>',
      'openai:<model>, anthropic:<model>, openai-compatible:<model> or exchange:<dir> (env AGENTGUARD_MODEL)',
    )
    .option('--base-url <url>', 'base URL of the model API (required for openai-compatible; env AGENTGUARD_BASE_URL)')
    .option('--record <file>', 'record every model call to this file (saved after each; resumed when it exists)')
    .option('--replay <file>', 'answer model calls from this recording instead of a model')
    .option('--max-calls <n>', 'model calls allowed for the build', '500')
    .option('--max-tokens <n>', 'tokens allowed for the build', '5000000')
    .option('--timeout <seconds>', 'time limit of one model call (raise it for exchange:<dir>)', '120')
    .option(
      '--concurrency <n>',
      'tools mapped and policies generated at the same time, each its own sequence of model calls (several people can answer exchange:<dir>)',
      '1',
    );
const mapOptions = (command: Command) =>
  command
    .requiredOption('--policy <file>', 'the policy document (text or markdown)')
    .requiredOption(
      '--tools <file>',
      'tool specs: a JSON Schema tool list, OpenAI tools, OpenAPI 3 or an MCP tools/list result',
    )
    .option(
      '--read-only <names>',
      'comma-separated read-only lookup tools (default: from the file, else from tool names)',
    )
    .option(
      '--guard-read-only <names>',
      'comma-separated read-only tools that policies cover too (tools returning what a policy keeps from the agent)',
    )
    .option('--rounds <n>', 'reflection rounds looking for missed policies', '2')
    .option('--votes <n>', 'relevance votes per policy', '3')
    .option('--toolguard', "also write the specs in IBM ToolGuard's JSON, under toolguard/")
    .option(
      '--samples <file>',
      'JSON object of sample results per lookup tool ({ "get_order": [result, …] }), to learn the result schemas the tool specs lack',
    );
const generateOptions = (command: Command) =>
  command
    .option('--helpers <dir>', 'helper modules offered to the generated code, copied to guards/lib/')
    .option('--domain <name>', 'the domain name in the manifest')
    .option('--clock <time>', "the policy's fixed clock, if it has one (ISO 8601)")
    .option(
      '--time-zone <offset>',
      'the zone of timestamps without one in records and arguments, e.g. -05:00 (default Z)',
    )
    .option(
      '--validate <runs>',
      "recorded runs (tau-bench trajectory JSON) to replay in shadow mode after generating: each policy's denial rate, in the report and the manifest",
    )
    .option('--max-repairs <n>', 'repairs per policy after the first implementation', '3')
    .option('--force', 'regenerate guard files edited by hand');
modelOptions(
  mapOptions(compile.command('map').description('Step 1: map the policy onto the tools (tool-policy specs)')),
).action(lazily(async () => (await import('./compile-command.ts')).compileMapCommand));
modelOptions(
  generateOptions(
    compile
      .command('generate')
      .description('Step 2: generate the guard pack test-first (exit 3 when a policy stays not enforced)')
      .requiredOption('--spec <dir>', 'the output of compile map (spec/, archive.json, tools.json, policy.md)'),
  ),
).action(lazily(async () => (await import('./compile-command.ts')).compileGenerateCommand));
modelOptions(
  generateOptions(
    mapOptions(compile.command('build').description('Both steps (exit 3 when a policy stays not enforced)')),
  ),
).action(lazily(async () => (await import('./compile-command.ts')).compileBuildCommand));

const evaluate = program.command('eval').description('Measure specs and packs');
evaluate
  .command('spec')
  .description('Score a predicted tool-policy spec against a gold one (reference P/R/F1, fuzzy Rand index)')
  .requiredOption('--predicted <dir>', 'a guard pack or a folder of spec files (ours or ToolGuard JSON)')
  .requiredOption('--gold <dir>', 'a guard pack or a folder of spec files (ours or ToolGuard JSON)')
  .option('--json', 'print the scores as JSON')
  .action(lazily(async () => (await import('./eval-command.ts')).evalSpecCommand));
evaluate
  .command('pack')
  .description("A pack's test pass rate on a suite of cases, split into compliance and violation failures")
  .requiredOption('--pack <dir>', 'guard pack folder')
  .requiredOption('--cases <file>', 'JSON list of test cases')
  .option('--json', 'print the results as JSON')
  .action(lazily(async () => (await import('./eval-command.ts')).evalPackCommand));

evaluate
  .command('guard-agent')
  .description(
    'A compiled guard program on an access-control dataset: a JSON line per row, then LPA, LPP, LPR and CCA per role',
  )
  .requiredOption('--dataset <name>', 'spider-ac (JSON lines of rows) or eicu-ac (data/eicu-ac/eicu-ac.json)')
  .requiredOption('--data <file>', 'its rows, JSON lines (.jsonl or .jsonl.gz)')
  .requiredOption('--out <file>', 'where to write one JSON line per row')
  .option('--limit <n>', 'only the first n rows')
  .option('--compiled <pack>', 'the guard program pack (default: packs/sql-access-control)')
  .option('--json', 'print the summary as JSON')
  .action(lazily(async () => (await import('./guard-agent-command.ts')).evalGuardAgentCommand));

/** The model options of an evaluation: which model, or a recording to record to or replay from. */
const evalModelOptions = (command: Command) =>
  command
    .option('--model <name>', 'openai:…, anthropic:…, openai-compatible:…, exchange:<dir>')
    .option('--base-url <url>', 'base URL of the model API')
    .option('--record <file>', 'record every model call to this file')
    .option('--replay <file>', 'answer model calls from this recording instead of a model')
    .option('--timeout <seconds>', 'time limit of one model call (raise it for exchange:<dir>)', '120');

evalModelOptions(
  evaluate
    .command('guard-agent-loop')
    .description(
      "The guard agent's loop on EICU-AC tasks, one memory across them: LPA, LPP, LPR and CCA against SQLite's own reading, and model calls per task",
    )
    .option('--dataset <name>', 'eicu-ac', 'eicu-ac')
    .option('--data <file>', 'the scenario', 'data/eicu-ac/eicu-ac.json')
    .option('--limit <n>', 'how many tasks, spread over the questions, roles in turn', '20'),
)
  .option('--memory <file>', 'the memory (SQLite file; default: in memory)')
  .option('--out <file>', 'also write one JSON line per task')
  .option('--max-calls <n>', 'model calls allowed in all', '400')
  .option('--json', 'print the summary as JSON')
  .action(lazily(async () => (await import('./guard-agent-eval.ts')).evalGuardAgentLoopCommand));

evalModelOptions(
  evaluate
    .command('guard-agent-rules')
    .description(
      'The guard agent on a rule request over web tasks, loop mode (CheckRule) against classify mode (CheckRule and Classify): accuracy, missed violations and model calls per task',
    )
    .option(
      '--data <dir>',
      'the rule set: request.md, spec.md, rules.json, profiles.json, tasks.json',
      'data/webarena-rules',
    )
    .option('--modes <modes>', 'comma-separated: loop, classify', 'loop,classify')
    .option('--limit <n>', 'tasks in classify mode, spread over the set (default: all)')
    .option('--loop-limit <n>', 'tasks in loop mode, spread over the set (each may cost a plan and a code call)', '20'),
)
  .option('--out <file>', 'also write one JSON line per task and mode')
  .option('--max-calls <n>', 'model calls allowed per mode', '200')
  .option('--json', 'print the summaries as JSON')
  .action(lazily(async () => (await import('./guard-agent-rules-eval.ts')).evalGuardAgentRulesCommand));

const guardAgent = program
  .command('guard-agent')
  .description("Guard an agent's input and output against a written guard request");
guardAgent
  .command('compile')
  .description(
    "Compile a guard request into a program tested on the memory's demonstrations (exit 3 when it never passes)",
  )
  .requiredOption('--request <file>', 'the guard request (text)')
  .requiredOption('--spec <file>', "the target agent's specification (text)")
  .requiredOption('--out <dir>', 'the program pack to write')
  .option('--model <name>', 'openai:…, anthropic:…, openai-compatible:…, exchange:<dir>')
  .option('--base-url <url>', 'base URL of the model API')
  .option('--replay <file>', 'answer model calls from a recording')
  .option('--memory <file>', 'the demonstration memory (SQLite file)')
  .option('--seed <file>', 'demonstrations to add first (JSON list)')
  .option(
    '--functions <names>',
    'comma-separated toolbox functions the request can use, e.g. CheckRule,Classify (default: all but Classify)',
  )
  .option('--timeout <seconds>', 'time limit of one model call (raise it for exchange:<dir>)', '120')
  .action(lazily(async () => (await import('./guard-agent-check.ts')).guardAgentCompileCommand));
guardAgent
  .command('check')
  .description('Decide one task; prints the decision as JSON. Exit code 0 granted, 2 denied')
  .requiredOption('--request <file>', 'the guard request (text)')
  .requiredOption('--spec <file>', "the target agent's specification (text)")
  .requiredOption('--input <file>', "the agent's input (JSON or text)")
  .requiredOption('--output <file>', "the agent's output (JSON or text)")
  .option(
    '--model <name>',
    'the model for the plan-code-debug loop and Classify (openai:…, anthropic:…, openai-compatible:…, exchange:<dir>)',
  )
  .option('--base-url <url>', 'base URL of the model API')
  .option('--replay <file>', 'answer model calls from a recording')
  .option('--compiled <pack>', 'a compiled guard program pack to decide first, e.g. packs/sql-access-control')
  .option(
    '--functions <names>',
    'comma-separated toolbox functions the request can use, e.g. CheckRule,Classify (default: all but Classify)',
  )
  .option('--timeout <seconds>', 'time limit of one model call (raise it for exchange:<dir>)', '120')
  .option(
    '--memory <file>',
    'the memory (SQLite file; default: in memory): demonstrations, and the code that decided earlier tasks of each request, tried first',
  )
  .option('--seed <file>', 'demonstrations to add first (JSON list)')
  .option(
    '--confirm <label>',
    "the label (0 or 1) a person confirmed for this task: when the decision agrees, the task joins the memory's demonstrations",
  )
  .action(lazily(async () => (await import('./guard-agent-check.ts')).guardAgentCheckCommand));

program
  .command('review')
  .description('Serve a page to review a pack: policy sentences, their guards, tests and decisions; approve it')
  .argument('<pack>', 'guard pack folder')
  .option('--replay <file>', 'decisions to show: the JSON lines of agentguard replay --out')
  .option('--trajectories <file>', 'with --replay: the recorded runs replayed, to show the conversation of each call')
  .option('--audit <target>', 'decisions to show: an audit log (a SQLite file or a postgres:// URL)')
  .option('--host <address>', 'address to bind', '127.0.0.1')
  .option('--port <n>', 'port to bind (0 picks a free one)', '0')
  .option('--no-open', 'do not open a browser')
  .action(lazily(async () => (await import('./review-command.ts')).reviewCommand));

program
  .command('mcp')
  .description('Guard an MCP server: re-expose its tools and check every tools/call against guard packs')
  .usage('--pack <dir> [options] (-- <command> [args...] | --upstream <url>)')
  .argument('[command...]', 'the upstream MCP server to start, after --')
  .requiredOption('--pack <dir>', 'guard pack folder (repeat for more)', collect)
  .option('--upstream <url>', 'a Streamable HTTP upstream instead of a command')
  .option('--listen <port>', 'serve Streamable HTTP on this port at /mcp instead of stdio')
  .option('--host <host>', 'the address to listen on', '127.0.0.1')
  .addOption(
    new Option('--unknown-tool <decision>', 'decision for tools no pack knows').choices(['allow', 'deny', 'ask']),
  )
  .addOption(
    new Option(
      '--unknown-read-only-tool <decision>',
      "decision for tools no pack knows that the server annotates readOnlyHint (default: --unknown-tool's)",
    ).choices(['allow', 'deny', 'ask']),
  )
  .option(
    '--ask-timeout <seconds>',
    'how long a person has to approve a call (under the 60 s an MCP SDK client waits for a call by default; raise it only for clients that wait longer)',
    String(defaultAskTimeoutMs / 1000),
  )
  .option(
    '--same-disk',
    "the proxy sees the upstream's disk (it runs beside the server): guards learn where a path really points from it",
  )
  .option('--audit <target>', 'append every verdict to this audit log: a SQLite file or a postgres:// URL')
  .action(lazily(async () => (await import('./mcp-command.ts')).mcpCommand));

program
  .command('serve')
  .description('Serve decisions over HTTP: POST /v1/check, GET /healthz, GET /openapi.json')
  .requiredOption('--pack <dir>', 'guard pack folder (repeat for several packs)', collect)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--port <n>', 'port to listen on (0: any free port)', '8080')
  .option(
    '--lookups <url>',
    "the agent's backend answering lookups (POST {tool, arguments}), a lookup records file, or tau-airline for the shipped data",
  )
  .option('--audit <target>', 'append every verdict to this audit log: a SQLite file or a postgres:// URL')
  .option('--timeout-ms <n>', 'time budget of one policy check, lookups included', '1000')
  .option('--body-limit <bytes>', 'largest request body accepted', String(1024 * 1024))
  .addOption(
    new Option('--unknown-tool <decision>', 'decision for tools no pack knows').choices(['allow', 'deny', 'ask']),
  )
  .action(lazily(async () => (await import('./serve-command.ts')).serveCommand));

const audit = program.command('audit').description('Read and verify an audit log (a SQLite file or a postgres:// URL)');
audit
  .command('verify <target>')
  .description('Check the hash chain; exit 1 naming the first bad record when it is broken')
  .option(
    '--expect-head <hash>',
    'a head printed by an earlier verify: exit 1 when no record has it (the log was cut off or its tail rewritten)',
  )
  .option('--json', 'print {"ok", "records", "head", "firstBad"?, "expectedHead"?} as JSON')
  .action(lazily(async () => (await import('./audit-command.ts')).auditVerifyCommand));
audit
  .command('tail <target>')
  .description('Print the last records')
  .option('-n, --lines <n>', 'how many (0: none, as tail -n 0)', '10')
  .option('--json', 'print them as JSON lines, as audit export does')
  .action(lazily(async () => (await import('./audit-command.ts')).auditTailCommand));
audit
  .command('stats <target>')
  .description('Sum the log up: decisions, per tool, violated policies, decision time, pack versions')
  .option('--json', 'print the figures as JSON')
  .action(lazily(async () => (await import('./audit-command.ts')).auditStatsCommand));
audit
  .command('export <target>')
  .description('Write the records as JSON lines ({seq, hash, prevHash, record}), in chain order')
  .option('--since <time>', 'only records from this ISO 8601 time on')
  .addOption(new Option('--format <format>', 'output format').choices(['jsonl']).default('jsonl'))
  .option('--out <file>', 'write to this file instead of standard output')
  .action(lazily(async () => (await import('./audit-command.ts')).auditExportCommand));

program
  .command('tau')
  .description(
    'Run tau-bench tasks with an agent and a simulated user, guarded by a pack and unguarded (the pack in shadow), and report task success and policy violations side by side',
  )
  .addOption(new Option('--domain <name>', 'the tau-bench domain').choices(['airline', 'retail']).makeOptionMandatory())
  .option('--pack <dir>', 'guard pack folder (without one, only the unguarded arm runs, with no verdicts)')
  .requiredOption('--agent-model <name>', 'the agent: openai:…, anthropic:…, openai-compatible:… or exchange:<dir>')
  .requiredOption(
    '--user-model <name>',
    'the simulated user: openai:…, anthropic:…, openai-compatible:… or exchange:<dir>',
  )
  .option('--base-url <url>', 'base URL of the model API (required for openai-compatible; env AGENTGUARD_BASE_URL)')
  .option('--agent-base-url <url>', "the agent model's base URL, where it differs from --base-url")
  .option('--user-base-url <url>', "the user model's base URL, where it differs from --base-url")
  .option('--tasks <list>', 'task indexes and ranges, e.g. 0-9,12, or all', 'all')
  .option('--task-file <file>', "tasks to run instead of the domain's shipped test tasks (tau-bench task JSON)")
  .option('--trials <n>', 'runs of each task, for pass^k', '1')
  .requiredOption('--out <dir>', 'folder of the runs, <arm>.json each (tau-bench trajectory JSON); rerun to resume')
  .option('--arms <list>', 'guarded, unguarded or both (default: both with --pack, else unguarded)')
  .addOption(
    new Option('--ask <mode>', 'what an ask verdict does: put the question to the simulated user, deny, or allow')
      .choices(['user', 'deny', 'allow'])
      .default('user'),
  )
  .option('--max-steps <n>', "the agent's steps before a run is cut off", '30')
  .option('--temperature <t>', "the agent's temperature", '0')
  .option('--concurrency <n>', 'runs at once', '1')
  .option('--json', 'print the summary as JSON')
  .action(lazily(async () => (await import('./tau-command.ts')).tauCommand));

program
  .command('start')
  .description('Replay the 200 recorded GPT-4o airline runs through the airline pack and print the report')
  .option('--out <file>', 'also write the verdicts as JSON lines')
  .action(lazily(async () => (await import('./replay-command.ts')).startCommand));

// A reader that stops early (`agentguard audit export log.db | head -1`) closes the pipe: stop writing, as tail does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

try {
  await program.parseAsync();
} catch (error) {
  if (!AgentGuardError.isInstance(error)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exitCode = 1;
}
