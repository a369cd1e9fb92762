import { readFile } from 'node:fs/promises';
import { AirlineTools, airlineNow } from '../domains/tau-airline/airline-tools.ts';
import { AirlineDatabase, airlineDataDir, loadAirlineData } from '../domains/tau-airline/database.ts';
import { loadRetailData, RetailDatabase, retailDataDir } from '../domains/tau-retail/database.ts';
import { RetailTools } from '../domains/tau-retail/retail-tools.ts';
import { AgentGuardError } from '../errors.ts';
import type { ToolInvoker } from '../model/guard-context.ts';
import { packagePath } from '../package-root.ts';
import { dataHash } from './data-hash.ts';
import { readTasks, type Task } from './task.ts';

/** A tool as the agent is offered it: an OpenAI function spec. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One episode's tools over a fresh database. */
export interface TauEnvironment {
  /** Runs a tool and returns what the agent sees, as tau-bench's `step` does. */
  run(tool: string, args: Record<string, unknown>): string;
  /** Read-only lookups for guards. */
  invoker: ToolInvoker;
  /** The hash of the data now (see `dataHash`). */
  dataHash(): string;
}

/** A tau-bench domain: its policy (the agent's system prompt), tools, tasks and environments. */
export interface TauDomain {
  name: 'airline' | 'retail';
  /** The policy document, tau-bench's `wiki`. */
  policy: string;
  /** The tools offered to the agent, in tau-bench's order. */
  tools: ToolSpec[];
  /** Tools that end the episode (tau-bench's `terminate_tools`). */
  terminateTools: ReadonlySet<string>;
  /** The test tasks. */
  tasks: Task[];
  /** The domain's clock, for the guards. */
  now: Date;
  /** A fresh environment: the data as loaded, no change of an earlier episode. */
  fresh(): TauEnvironment;
}

/** The tau-bench domains agentguard ports. */
export const domainNames = ['airline', 'retail'] as const;

/** tau-bench v1 has no fixed clock in retail; guards read this one. */
const retailNow = '2024-05-15T15:00:00-05:00';

/** The airline tools of the pack that tau-bench does not offer the agent: guard-only lookups. */
const airlineGuardOnly = new Set(['get_flight_on_date_details']);

/** tau-bench's answer to a tool the agent is not offered. */
function offeredOnly(tools: readonly ToolSpec[], run: TauEnvironment['run']): TauEnvironment['run'] {
  const offered = new Set(tools.map((tool) => tool.name));
  return (tool, args) => (offered.has(tool) ? run(tool, args) : `Unknown action ${tool}`);
}

async function readJson<Value>(file: string): Promise<Value> {
  return JSON.parse(await readFile(file, 'utf8')) as Value;
}

/**
 * Loads a domain with its shipped data.
 *
 * @example
 * ```ts
 * const retail = await loadDomain('retail');
 * const environment = retail.fresh();
 * environment.run('get_order_details', { order_id: '#W2611340' });
 * ```
 */
export async function loadDomain(name: string): Promise<TauDomain> {
  const terminateTools = new Set(['transfer_to_human_agents']);
  if (name === 'airline') {
    const data = await loadAirlineData();
    const specs = await readJson<ToolSpec[]>(packagePath('packs/tau-airline/tools.json'));
    const tools = specs
      .filter((spec) => !airlineGuardOnly.has(spec.name))
      .map(({ name: tool, description, parameters }) => ({ name: tool, description, parameters }));
    return {
      name,
      policy: await readFile(`${airlineDataDir}/wiki.md`, 'utf8'),
      tools,
      terminateTools,
      tasks: await readTasks(`${airlineDataDir}/tasks_test.json`),
      now: new Date(`${airlineNow}-05:00`),
      fresh: () => {
        const database = new AirlineDatabase(data);
        const airline = new AirlineTools(database);
        return {
          run: offeredOnly(tools, (tool, args) => airline.run(tool, args)),
          invoker: airline.invoker,
          dataHash: () => dataHash(database.tables()),
        };
      },
    };
  }
  if (name === 'retail') {
    const data = await loadRetailData();
    const specs = await readJson<{ function: ToolSpec }[]>(`${retailDataDir}/tools.json`);
    const tools = specs.map(({ function: { name: tool, description, parameters } }) => ({
      name: tool,
      description,
      parameters,
    }));
    return {
      name,
      policy: await readFile(`${retailDataDir}/wiki.md`, 'utf8'),
      tools,
      terminateTools,
      tasks: await readTasks(`${retailDataDir}/tasks_test.json`),
      now: new Date(retailNow),
      fresh: () => {
        const database = new RetailDatabase(data);
        const retail = new RetailTools(database);
        return {
          run: offeredOnly(tools, (tool, args) => retail.run(tool, args)),
          invoker: retail.invoker,
          dataHash: () => dataHash(database.tables()),
        };
      },
    };
  }
  throw new AgentGuardError('invalid_input', `unknown tau-bench domain \`${name}\`: use ${domainNames.join(' or ')}`);
}
