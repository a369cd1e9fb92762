import {
  type AskOutcome,
  type AskOutcomeRecord,
  type AuditRecord,
  type AuditSink,
  askOutcomeRecord,
  auditBody,
  auditRecord,
  type PackFingerprint,
} from '../audit/audit-record.ts';
import { sha256Hex } from '../audit/canonical-json.ts';
import { packFingerprint } from '../audit/pack-fingerprint.ts';
import { AgentGuardError } from '../errors.ts';
import type { GuardContext, ToolInvoker } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Decision, Diagnostics, FaultKind, Verdict, Violation } from '../model/verdict.ts';
import type { GuardPack, LoadedPolicy, LoadedTool } from '../pack/load-pack.ts';
import { caseCall } from '../pack/run-cases.ts';
import { packTestFiles } from '../pack/test-case.ts';
import { executorFor, type GuardExecutor } from './executor.ts';
import type { GuardLoadFailure } from './guard-load.ts';
import type { PolicyOutcome } from './policy-check.ts';

/** How the runtime decides what no enforced policy decides. */
export interface RuntimeOptions {
  /** Decision for a tool that no loaded pack knows. Default `deny`. */
  unknownTool?: Decision;
  /**
   * Decision for a tool no loaded pack knows that `isReadOnly` says only reads (an MCP tool annotated
   * `readOnlyHint`), e.g. `allow` to let a guarded server's lookups through while its unknown writes are denied.
   * Default: `unknownTool`.
   */
  unknownReadOnlyTool?: Decision;
  /** Whether a tool no pack knows only reads; asked only when `unknownReadOnlyTool` is set. Default: none does. */
  isReadOnly?: (tool: string) => boolean | Promise<boolean>;
  /** Decision for arguments that do not match the tool's schema (unknown, missing or mistyped). Default `deny`. */
  invalidArguments?: Decision;
  /** Decision for a policy the pack lists as not enforced (its guard never went green). Default `deny`. */
  notEnforced?: Decision;
  /** Time budget of one policy check in milliseconds. Default 100. */
  timeoutMs?: number;
  /** Decide and report, never block: the verdict's `decision` is always `allow`. Default false. */
  shadow?: boolean;
  /** Where every verdict is appended (see `openAuditLog`). Appending never delays or changes a verdict. */
  audit?: AuditSink;
}

interface Route {
  pack: GuardPack;
  tool: LoadedTool;
  executor: GuardExecutor;
  lookups: ReadonlySet<string>;
  /** The ids of the tool's enforced policies. */
  enforced: readonly string[];
  /** The tool's policies by id. */
  policies: ReadonlyMap<string, LoadedPolicy>;
  /** What its not-enforced policies add to every verdict under the runtime's default. */
  notEnforced: readonly Violation[];
}

const rank: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/** Asks remembered for `settleAsk` at most; past it the oldest is forgotten and its outcome is recorded unlinked. */
const pendingAskLimit = 10_000;

/** The violation a policy without a working guard adds to every verdict of its tool; none for any other policy. */
function notEnforcedViolation(policy: LoadedPolicy, effect: Decision): Violation[] {
  if (policy.entry.state !== 'not_enforced') return [];
  return [
    {
      policy: policy.spec.id,
      name: policy.spec.name,
      message: `the policy has no working guard (${policy.entry.reason})`,
      references: policy.spec.references,
      effect: effect === 'ask' ? 'ask' : 'deny',
      fault: 'not_enforced',
    },
  ];
}

function runtimeViolation(fault: FaultKind, message: string, effect: Decision): Violation {
  return {
    policy: `runtime.${fault}`,
    name: fault === 'unknown_tool' ? 'Unknown tool' : 'Invalid arguments',
    message,
    references: [],
    effect: effect === 'ask' ? 'ask' : 'deny',
    fault,
  };
}

/**
 * Decides every tool call before it runs, from the loaded guard packs. Never throws for a call: a guard that throws,
 * hangs, returns something malformed or is missing yields deny with the policy and the fault named.
 *
 * @example
 * ```ts
 * const runtime = new GuardRuntime([await loadPack('packs/tau-airline')]);
 * const verdict = await runtime.check(call, { conversation, invoker, now: new Date('2024-05-15T15:00:00') });
 * if (verdict.decision !== 'allow') return feedbackFor(verdict);
 * ```
 */
export class GuardRuntime {
  private readonly routes = new Map<string, Route>();
  private readonly executors: GuardExecutor[] = [];
  private readonly options: Required<Omit<RuntimeOptions, 'audit' | 'unknownReadOnlyTool' | 'isReadOnly'>> &
    Pick<RuntimeOptions, 'unknownReadOnlyTool' | 'isReadOnly'>;
  private readonly audit: { sink: AuditSink; packs: readonly PackFingerprint[] } | undefined;
  private readonly packs: readonly GuardPack[];
  /** The audit records of asks not yet settled, by call id, oldest first. */
  private readonly pendingAsks = new Map<string, NonNullable<AskOutcomeRecord['ask']>>();
  /** The read-only view handed out last. */
  private lastView: { invoker: ToolInvoker; lookups: ReadonlySet<string>; view: ToolInvoker } | undefined;

  constructor(packs: readonly GuardPack[], options: RuntimeOptions = {}) {
    this.options = {
      unknownTool: options.unknownTool ?? 'deny',
      ...(options.unknownReadOnlyTool === undefined ? {} : { unknownReadOnlyTool: options.unknownReadOnlyTool }),
      ...(options.isReadOnly === undefined ? {} : { isReadOnly: options.isReadOnly }),
      invalidArguments: options.invalidArguments ?? 'deny',
      notEnforced: options.notEnforced ?? 'deny',
      timeoutMs: options.timeoutMs ?? 100,
      shadow: options.shadow ?? false,
    };
    this.packs = packs;
    this.audit = options.audit && { sink: options.audit, packs: packs.map(packFingerprint) };
    for (const pack of packs) {
      const executor = executorFor(pack);
      this.executors.push(executor);
      const lookups = new Set(
        [...pack.tools.values()].filter((tool) => tool.spec.readOnly).map((tool) => tool.spec.name),
      );
      for (const [name, tool] of pack.tools) {
        const taken = this.routes.get(name);
        if (taken !== undefined) {
          throw new AgentGuardError(
            'invalid_pack',
            `tool \`${name}\` is guarded by two packs: \`${taken.pack.manifest.domain}\` and \`${pack.manifest.domain}\``,
          );
        }
        this.routes.set(name, {
          pack,
          tool,
          executor,
          lookups,
          enforced: tool.policies.filter((policy) => policy.entry.state === 'enforced').map((policy) => policy.spec.id),
          policies: new Map(tool.policies.map((policy) => [policy.spec.id, policy])),
          notEnforced:
            this.options.notEnforced === 'allow'
              ? []
              : tool.policies.flatMap((policy) => notEnforcedViolation(policy, this.options.notEnforced)),
        });
      }
    }
  }

  /** Decides one tool call in its context. */
  async check(call: ToolCall, context: GuardContext): Promise<Verdict> {
    const verdict = await this.decide(call, context);
    if (this.audit !== undefined) {
      const record = auditRecord(call, context.conversation, context.now, verdict, this.audit.packs);
      this.audit.sink.append(record);
      if (verdict.decision === 'ask') this.rememberAsk(call.id, record);
    }
    return verdict;
  }

  /**
   * Records what became of a call whose verdict was `ask`: the person's answer and whether the call then ran. The
   * record is appended after the verdict's and linked to it (see `AskOutcomeRecord`); an outcome for a call this
   * runtime did not ask about is recorded unlinked. Returns at once and never throws; without an audit sink it does
   * nothing.
   *
   * @example
   * ```ts
   * const verdict = await runtime.check(call, context);
   * if (verdict.decision === 'ask') {
   *   const approved = await askPerson(verdict);
   *   if (approved) await runTool(call);
   *   runtime.settleAsk(call, { answer: approved ? 'approved' : 'declined', ran: approved });
   * }
   * ```
   */
  settleAsk(call: ToolCall, outcome: AskOutcome): void {
    if (this.audit === undefined) return;
    try {
      const ask = this.pendingAsks.get(call.id) ?? null;
      this.pendingAsks.delete(call.id);
      this.audit.sink.append(askOutcomeRecord(call, outcome, ask));
    } catch (error) {
      process.stderr.write(
        `agentguard audit: the outcome of call \`${call.id}\` was not recorded: ${(error as Error).message}\n`,
      );
    }
  }

  /** Remembers the record of an ask until it is settled; a record that cannot be hashed leaves the outcome unlinked. */
  private rememberAsk(callId: string, record: AuditRecord): void {
    let sha256: string;
    try {
      sha256 = sha256Hex(auditBody(record));
    } catch {
      return;
    }
    this.pendingAsks.delete(callId);
    this.pendingAsks.set(callId, { time: record.time, sha256 });
    if (this.pendingAsks.size > pendingAskLimit) {
      const oldest = this.pendingAsks.keys().next();
      if (oldest.done !== true) this.pendingAsks.delete(oldest.value);
    }
  }

  /**
   * Decides every test case the loaded reviewed packs ship (`tests/*.cases.json`) twice, with lookups answered at once
   * and with promised ones; the verdicts are dropped and nothing is audited. A service calls it before it takes calls,
   * so that the first calls it decides find the guard code compiled instead of paying for that themselves. Unreviewed
   * packs are left out: their code runs in a worker, which this does not reach.
   *
   * @example
   * ```ts
   * const { cases, ms } = await runtime.warmUp();
   * ```
   */
  async warmUp(): Promise<{ cases: number; ms: number }> {
    const started = performance.now();
    let cases = 0;
    for (const pack of this.packs) {
      if (!pack.manifest.reviewed) continue;
      for (const testCase of (await packTestFiles(pack.dir)).flatMap((file) => file.cases)) {
        for (const atOnce of [true, false]) {
          const { call, context } = caseCall(pack, testCase, { atOnce });
          await this.decide(call, context);
        }
        cases++;
      }
    }
    return { cases, ms: Math.round(performance.now() - started) };
  }

  /** The decision for a tool no pack knows: `unknownReadOnlyTool` for one that only reads, else `unknownTool`. */
  private async unknownToolDecision(tool: string): Promise<Decision> {
    const { unknownReadOnlyTool, isReadOnly, unknownTool } = this.options;
    if (unknownReadOnlyTool === undefined || isReadOnly === undefined) return unknownTool;
    try {
      return (await isReadOnly(tool)) ? unknownReadOnlyTool : unknownTool;
    } catch {
      // Not known to only read: the stricter default stands.
      return unknownTool;
    }
  }

  /** Decides one tool call: the verdict `check` returns, not yet audited. */
  private async decide(call: ToolCall, context: GuardContext): Promise<Verdict> {
    const started = performance.now();
    const violations: Violation[] = [];
    const errors: { policy: string; fault: FaultKind; message: string }[] = [];
    const route = this.routes.get(call.name);
    if (route === undefined) {
      const decision = await this.unknownToolDecision(call.name);
      if (decision !== 'allow') {
        violations.push(runtimeViolation('unknown_tool', `no guard pack knows the tool \`${call.name}\``, decision));
      }
      return this.verdict(call, violations, { policies: [], errors, durationUs: 0 }, started);
    }
    const problems = route.tool.validate(call.arguments);
    if (problems.length > 0 && this.options.invalidArguments !== 'allow') {
      violations.push(
        runtimeViolation(
          'invalid_arguments',
          `the arguments of \`${call.name}\` do not match its schema: ${problems.join('; ')}`,
          this.options.invalidArguments,
        ),
      );
      return this.verdict(call, violations, { policies: [], errors, durationUs: 0 }, started);
    }
    const enforced = route.enforced;
    // Copies: a verdict is the caller's to keep or change.
    for (const violation of route.notEnforced) violations.push({ ...violation });
    if (enforced.length > 0) {
      const guarded: GuardContext = {
        conversation: context.conversation,
        now: context.now,
        invoker: this.readOnly(context.invoker, route.lookups),
      };
      const evaluating = route.executor.evaluate(route.tool, enforced, call, guarded, this.options.timeoutMs);
      // Checks that all answered synchronously cost no promise.
      const outcomes = evaluating instanceof Promise ? await evaluating : evaluating;
      for (const outcome of outcomes) this.record(route, outcome, violations, errors);
    }
    return this.verdict(call, violations, { policies: enforced.slice(), errors, durationUs: 0 }, started);
  }

  private record(
    route: Route,
    outcome: PolicyOutcome,
    violations: Violation[],
    errors: { policy: string; fault: FaultKind; message: string }[],
  ): void {
    if (!('fault' in outcome) && outcome.finding === undefined) return;
    const policy = route.policies.get(outcome.policy);
    const name = policy?.spec.name ?? outcome.policy;
    const references = policy?.spec.references ?? [];
    if ('fault' in outcome) {
      errors.push({ policy: outcome.policy, fault: outcome.fault, message: outcome.message });
      violations.push({
        policy: outcome.policy,
        name,
        message: `while evaluating policy \`${outcome.policy}\`: the guard ${outcome.message}; denied because the policy could not be checked`,
        references,
        effect: 'deny',
        fault: outcome.fault,
      });
      return;
    }
    if (outcome.finding === undefined) return;
    const { ask } = outcome.finding;
    // An unsure fact asks a person, unless the policy's spec says a missing fact denies.
    const unsure = policy?.spec.unsure === 'deny' ? 'deny' : 'ask';
    const effect = ask !== undefined ? unsure : policy?.entry.state === 'enforced' ? policy.entry.effect : 'deny';
    const violation: Violation = { policy: outcome.policy, name, message: outcome.finding.message, references, effect };
    if (policy?.spec.remedy !== undefined) violation.remedy = policy.spec.remedy;
    if (ask !== undefined) violation.question = ask;
    if (outcome.finding.facts !== undefined) violation.facts = outcome.finding.facts;
    violations.push(violation);
  }

  private verdict(call: ToolCall, violations: Violation[], diagnostics: Diagnostics, started: number): Verdict {
    let evaluated: Decision = 'allow';
    for (const violation of violations) if (rank[violation.effect] > rank[evaluated]) evaluated = violation.effect;
    diagnostics.durationUs = Math.round((performance.now() - started) * 1000);
    return {
      decision: this.options.shadow ? 'allow' : evaluated,
      evaluated,
      tool: call.name,
      callId: call.id,
      violations,
      diagnostics,
    };
  }

  /**
   * The read-only view of an invoker for one pack's lookups. The last view is kept: consecutive calls mostly come with
   * the same invoker, and making a view costs less than remembering one per invoker.
   */
  private readOnly(invoker: ToolInvoker, lookups: ReadonlySet<string>): ToolInvoker {
    const last = this.lastView;
    if (last !== undefined && last.invoker === invoker && last.lookups === lookups) return last.view;
    const view = readOnly(invoker, lookups);
    this.lastView = { invoker, lookups, view };
    return view;
  }

  /**
   * The enforced policies whose checks cannot be loaded where the runtime runs them (in this thread for reviewed
   * packs, in the worker for others), with why: the runtime denies every call of their tools. Empty when every guard
   * loads. A service refuses to start while any are listed, and its health check reports them.
   *
   * @example
   * ```ts
   * for (const failure of await runtime.loadFailures()) console.error(`${failure.policy}: ${failure.reason}`);
   * ```
   */
  async loadFailures(): Promise<GuardLoadFailure[]> {
    const failures: GuardLoadFailure[] = [];
    for (const route of this.routes.values()) {
      if (route.enforced.length === 0) continue;
      for (const failure of await route.executor.loadFailures(route.tool, route.enforced)) {
        failures.push({ pack: route.pack.manifest.domain, tool: route.tool.spec.name, ...failure });
      }
    }
    return failures;
  }

  /**
   * Stops the worker threads that run unreviewed packs' guards, if any were started; call it when done with the
   * runtime. A worker holds the process only while a call is in flight, so a process that never calls it still exits.
   *
   * @example
   * ```ts
   * const runtime = new GuardRuntime([await loadPack('my-compiled-pack')]);
   * try {
   *   await runtime.check(call, context);
   * } finally {
   *   await runtime.close();
   * }
   * ```
   */
  async close(): Promise<void> {
    await Promise.all(this.executors.map((executor) => executor.close()));
  }
}

function readOnly(invoker: ToolInvoker, lookups: ReadonlySet<string>): ToolInvoker {
  const refused = (tool: string) => new Error(`\`${tool}\` is not a read-only lookup of this pack`);
  const view: ToolInvoker = {
    invoke(tool, args) {
      if (!lookups.has(tool)) return Promise.reject(refused(tool));
      return invoker.invoke(tool, args);
    },
  };
  if (invoker.invokeNow !== undefined) {
    const now = invoker.invokeNow.bind(invoker);
    view.invokeNow = (tool, args) => {
      if (!lookups.has(tool)) throw refused(tool);
      return now(tool, args);
    };
  }
  return view;
}
