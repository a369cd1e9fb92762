import { Worker } from 'node:worker_threads';
import type { GuardContext } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { GuardPack, LoadedTool } from '../pack/load-pack.ts';
import { moduleUrl } from '../package-root.ts';
import type { GuardExecutor, PolicyLoadFailure } from './executor.ts';
import type { PolicyOutcome } from './policy-check.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

interface Pending {
  resolve(outcomes: PolicyOutcome[]): void;
  context: GuardContext;
  worker: Worker;
  policies: readonly string[];
}

/**
 * Runs guard code that is not reviewed in a worker thread. The worker sees only copies of the call, the conversation
 * and lookup results; a check that hangs, even in a synchronous loop, is stopped by terminating the worker, and the
 * next call starts a fresh one. A worker first imports the pack's guard modules and says it is ready; the time budget
 * then covers the whole evaluation of one call, not the worker's start. The worker keeps the process alive only while
 * a call is in flight: a process that never calls `close()` still exits once its work is done.
 */
export class WorkerExecutor implements GuardExecutor {
  private worker: Worker | undefined;
  /** Settles when the current worker has imported the guard modules, or has died trying. */
  private ready: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  /** What the current worker reported when it imported the guard modules (see `WorkerReply`). */
  private modules: Record<string, string[] | string> = {};
  private nextId = 0;
  /** How many calls (`evaluate`, `loadFailures`) are in flight; the worker is referenced only while one is. */
  private inFlight = 0;

  /** What the worker needs to start: the pack's folder and its guard modules. */
  private readonly workerData: { packDir: string; guardFiles: string[] };

  constructor(pack: GuardPack) {
    const guardFiles = [...pack.tools.values()].flatMap((tool) =>
      tool.guardFile === undefined ? [] : [tool.guardFile],
    );
    this.workerData = { packDir: pack.dir, guardFiles };
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(moduleUrl(import.meta.url, './worker-entry'), { workerData: this.workerData });
    let started = () => {};
    this.ready = new Promise((resolve) => {
      started = resolve;
    });
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type !== 'ready') return this.onReply(worker, reply);
      this.modules = reply.modules;
      started();
    });
    worker.on('error', (error) => this.failAll(worker, `the guard worker failed: ${error.message}`));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(worker, 'the guard worker exited');
      started();
    });
    // Set after the listeners, since a `message` listener references the worker again.
    if (this.inFlight === 0) worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Runs one call with the current worker, and any it starts, keeping the process alive until the call settles. */
  private async busy<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    this.worker?.ref();
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.worker?.unref();
    }
  }

  /** Fails, as faults, the calls still in flight on a worker that died. */
  private failAll(worker: Worker, message: string): void {
    for (const [id, pending] of this.pending) {
      if (pending.worker !== worker) continue;
      this.pending.delete(id);
      pending.resolve(pending.policies.map((policy) => ({ policy, fault: 'threw', message })));
    }
  }

  private onReply(worker: Worker, reply: Exclude<WorkerReply, { type: 'ready' }>): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    if (reply.type === 'result') {
      this.pending.delete(reply.id);
      pending.resolve(reply.outcomes);
      return;
    }
    pending.context.invoker.invoke(reply.tool, reply.args).then(
      (value) =>
        worker.postMessage({ type: 'lookup', id: reply.id, lookupId: reply.lookupId, value } satisfies WorkerRequest),
      (error: unknown) =>
        worker.postMessage({
          type: 'lookup',
          id: reply.id,
          lookupId: reply.lookupId,
          error: error instanceof Error ? error.message : String(error),
        } satisfies WorkerRequest),
    );
  }

  evaluate(
    tool: LoadedTool,
    policies: readonly string[],
    call: ToolCall,
    context: GuardContext,
    timeoutMs: number,
  ): Promise<PolicyOutcome[]> {
    return this.busy(() => this.evaluateOnWorker(tool, policies, call, context, timeoutMs));
  }

  private async evaluateOnWorker(
    tool: LoadedTool,
    policies: readonly string[],
    call: ToolCall,
    context: GuardContext,
    timeoutMs: number,
  ): Promise<PolicyOutcome[]> {
    const worker = this.start();
    await this.ready;
    if (this.worker !== worker) {
      return policies.map((policy) => ({ policy, fault: 'threw', message: 'the guard worker exited as it started' }));
    }
    const id = this.nextId++;
    return new Promise<PolicyOutcome[]>((resolve) => {
      const budget = timeoutMs * Math.max(1, policies.length);
      const timer = setTimeout(() => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        resolve(
          policies.map((policy) => ({ policy, fault: 'timeout', message: `took longer than its ${budget} ms budget` })),
        );
        // Other calls in flight on this worker fail with it; the next call starts a fresh worker.
        this.worker = undefined;
        void worker.terminate();
      }, budget);
      this.pending.set(id, {
        context,
        worker,
        policies,
        resolve: (outcomes) => {
          clearTimeout(timer);
          resolve(outcomes);
        },
      });
      worker.postMessage({
        type: 'check',
        id,
        guardFile: tool.guardFile ?? '',
        policies: [...policies],
        call,
        messages: context.conversation.messages,
        now: context.now.getTime(),
        timeoutMs,
      } satisfies WorkerRequest);
    });
  }

  async loadFailures(tool: LoadedTool, policies: readonly string[]): Promise<PolicyLoadFailure[]> {
    const worker = await this.busy(async () => {
      const started = this.start();
      await this.ready;
      return started;
    });
    const loaded =
      this.worker !== worker
        ? 'the guard worker exited as it started'
        : tool.guardFile === undefined
          ? 'the tool has no guard file'
          : (this.modules[tool.guardFile] ?? 'the guard worker did not import the guard file');
    return policies.flatMap((policy) => {
      if (typeof loaded === 'string') return [{ policy, reason: loaded }];
      return loaded.includes(policy) ? [] : [{ policy, reason: `the guard file exports no check for \`${policy}\`` }];
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }
}
