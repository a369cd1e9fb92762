#!/usr/bin/env node
import { Command, Option } from 'commander';
import { AgentGuardError } from '../errors.ts';
import { checkCommand } from './check-command.ts';
import { evalPackCommand, evalSpecCommand } from './eval-command.ts';
import { replayCommand, startCommand } from './replay-command.ts';

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
  .action(replayCommand);

program
  .command('check')
  .description('Decide one tool call; prints the verdict as JSON. Exit code 0 allow, 2 deny, 3 ask')
  .requiredOption('--pack <dir>', 'guard pack folder')
  .requiredOption('--call <file>', 'the call: {"name", "arguments", "id"?} or an OpenAI tool call')
  .option('--conversation <file>', 'the conversation before the call, as OpenAI chat messages')
  .option('--now <time>', "the policy's clock, e.g. 2024-05-15T15:00:00-05:00 (default: the domain's, else now)")
  .addOption(
    new Option('--unknown-tool <decision>', 'decision for tools no pack knows').choices(['allow', 'deny', 'ask']),
  )
  .action(checkCommand);

const evaluate = program.command('eval').description('Measure specs and packs');
evaluate
  .command('spec')
  .description('Score a predicted tool-policy spec against a gold one (reference P/R/F1, fuzzy Rand index)')
  .requiredOption('--predicted <dir>', 'a guard pack or a folder of spec files (ours or ToolGuard JSON)')
  .requiredOption('--gold <dir>', 'a guard pack or a folder of spec files (ours or ToolGuard JSON)')
  .option('--json', 'print the scores as JSON')
  .action(evalSpecCommand);
evaluate
  .command('pack')
  .description("A pack's test pass rate on a suite of cases, split into compliance and violation failures")
  .requiredOption('--pack <dir>', 'guard pack folder')
  .requiredOption('--cases <file>', 'JSON list of test cases')
  .option('--json', 'print the results as JSON')
  .action(evalPackCommand);

program
  .command('start')
  .description('Replay the 200 recorded GPT-4o airline runs through the airline pack and print the report')
  .option('--out <file>', 'also write the verdicts as JSON lines')
  .action(startCommand);

try {
  await program.parseAsync();
} catch (error) {
  if (!AgentGuardError.isInstance(error)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exitCode = 1;
}
