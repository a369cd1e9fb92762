import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { Conversation } from '../model/conversation.ts';
import { loadTypeScriptFrom } from '../pack/typescript-loader.ts';
import { evaluateChecks, type GuardModule } from './policy-check.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('worker-entry must run in a worker thread');
const { packDir, guardFiles } = workerData as { packDir: string; guardFiles: string[] };
loadTypeScriptFrom(packDir);

const imported = new Map<string, Promise<GuardModule | string>>();
const lookups = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextLookup = 0;

function load(file: string): Promise<GuardModule | string> {
  let module = imported.get(file);
  if (module === undefined) {
    module = import(pathToFileURL(file).href).then(
      (loaded: Partial<GuardModule>) =>
        typeof loaded.checks === 'object' && loaded.checks !== null
          ? (loaded as GuardModule)
          : 'exports no `checks` record',
      (error: Error) => `cannot be loaded: ${error.message}`,
    );
    imported.set(file, module);
  }
  return module;
}

port.on('message', async (request: WorkerRequest) => {
  if (request.type === 'lookup') {
    const pending = lookups.get(request.lookupId);
    lookups.delete(request.lookupId);
    if (request.error !== undefined) pending?.reject(new Error(request.error));
    else pending?.resolve(request.value);
    return;
  }
  const module = await load(request.guardFile);
  const checks = request.policies.map((policy) =>
    typeof module === 'string'
      ? { policy, check: undefined, missingReason: module }
      : { policy, check: module.checks[policy] },
  );
  const context = {
    conversation: new Conversation(request.messages),
    now: new Date(request.now),
    invoker: {
      invoke(tool: string, args: Record<string, unknown>): Promise<unknown> {
        const lookupId = nextLookup++;
        return new Promise((resolve, reject) => {
          lookups.set(lookupId, { resolve, reject });
          port.postMessage({ type: 'lookup', id: request.id, lookupId, tool, args } satisfies WorkerReply);
        });
      },
    },
  };
  const outcomes = await evaluateChecks(checks, request.call.arguments, context, request.call, request.timeoutMs);
  port.postMessage({ type: 'result', id: request.id, outcomes } satisfies WorkerReply);
});

// Guard modules are imported before the first call, so that no call's time budget pays for it.
const modules: Record<string, string[] | string> = {};
for (const file of guardFiles) {
  const module = await load(file);
  modules[file] = typeof module === 'string' ? module : Object.keys(module.checks);
}
port.postMessage({ type: 'ready', modules } satisfies WorkerReply);
