/**
 * agentguard: compile written policy into guards that run before every tool call of an LLM agent.
 *
 * @example
 * ```ts
 * import { GuardRuntime, loadPack, feedbackFor } from 'agentguard';
 * const runtime = new GuardRuntime([await loadPack('packs/tau-airline')]);
 * ```
 */

export { type AuditHealth, AuditLog, type AuditLogOptions, isPostgresUrl, openAuditLog } from './audit/audit-log.ts';
export {
  type AskAnswer,
  type AskOutcome,
  type AskOutcomeRecord,
  type AuditRecord,
  type AuditSink,
  askOutcomeRecord,
  auditBody,
  auditRecord,
  conversationDigest,
  isAskOutcomeRecord,
  type PackFingerprint,
} from './audit/audit-record.ts';
export { type AuditStats, auditStats, type ToolStats } from './audit/audit-stats.ts';
export { chainHash, genesisHash, type StoredEntry } from './audit/audit-store.ts';
export { canonicalJson, sha256Hex } from './audit/canonical-json.ts';
export { packFingerprint } from './audit/pack-fingerprint.ts';
export { type ChainBreak, type ChainReport, verifyAuditLog } from './audit/verify-chain.ts';
export {
  type Answer,
  asksForConfirmation,
  isAffirmative,
  type ReplyReading,
  readReply,
} from './dialogue/affirmation.ts';
export type { Agreement, AgreementTerms, ProposedCall } from './dialogue/agreement.ts';
export { canonicalText } from './dialogue/canonical-text.ts';
export type { DomainDescription, ValueKind } from './dialogue/domain-description.ts';
export type {
  Evidence,
  Fact,
  OfferedChoice,
  ReasonOptions,
  StatedValue,
  ValueFact,
} from './dialogue/facts.ts';
export type { AgreedAmount, AmountDescription, ListedItems } from './dialogue/terms.ts';
export { AgentGuardError, type ErrorCode, InputError, type InputIssue } from './errors.ts';
export type { GuardDecision, GuardProgram, GuardReason, GuardTask } from './guard-agent/guard-program.ts';
export { loadProgramPack, type ProgramExample, type ProgramPack } from './guard-agent/program-pack.ts';
export type { Rule } from './guard-agent/toolbox/check-rule.ts';
export type { Permissions, TablePermission } from './guard-agent/toolbox/grants.ts';
export { loadPostgresParser } from './guard-agent/toolbox/postgres-parser.ts';
export { createToolbox, type Toolbox } from './guard-agent/toolbox/toolbox.ts';
export {
  type AssistantMessage,
  type Confirmation,
  Conversation,
  type Message,
  type PastToolCall,
  type SystemMessage,
  type ToolResultMessage,
  type UserMessage,
} from './model/conversation.ts';
export type { GuardContext, ToolInvoker } from './model/guard-context.ts';
export { fromOpenAIChat, type OpenAIChatMessage, openAIChatMessageSchema } from './model/openai-chat.ts';
export type { ToolCall } from './model/tool-call.ts';
export type { Decision, Diagnostics, FaultKind, PolicyFinding, Verdict, Violation } from './model/verdict.ts';
export { type VerdictReport, verdictReport, verdictReportSchema } from './model/verdict-report.ts';
export { type ApprovalResult, approvePack } from './pack/approve-pack.ts';
export { type GuardPack, type LoadedPolicy, type LoadedTool, loadPack } from './pack/load-pack.ts';
export { type Manifest, manifestSchema, type PolicyEntry, type ReviewRecord } from './pack/manifest.ts';
export {
  fromToolGuardSpec,
  type PolicySpec,
  type ToolGuardSpec,
  type ToolPolicySpec,
  toolGuardSpecSchema,
  toolPolicySpecSchema,
  toToolGuardSpec,
} from './pack/policy-spec.ts';
export { type ReviewChange, reviewChanges } from './pack/review-hashes.ts';
export { type ToolSpec, toolSpecSchema } from './pack/tool-spec.ts';
export { feedbackFor } from './runtime/feedback.ts';
export { assertGuardsLoad, type GuardLoadFailure, guardLoadError } from './runtime/guard-load.ts';
export { GuardRuntime, type RuntimeOptions } from './runtime/guard-runtime.ts';
export { GuardDeniedError, type GuardToolOptions, guardTool } from './runtime/guard-tool.ts';
export type { GuardModule, PolicyCheck, PolicyOutcome } from './runtime/policy-check.ts';
