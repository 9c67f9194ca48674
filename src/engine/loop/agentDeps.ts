// What an agent is made of (AgentDeps) and what it is asked to do (StepRequest): the loop's inputs
// (docs/architecture.md). The loop itself is loop.ts; one model request is modelStep.ts.
import type { ContentPart, ModelClient, ProviderError, ResolvedModel } from '../../llm/types';
import type { ToolServices } from '../../tools/defineTool';
import type { ApprovalPort, PermissionRule } from '../policy/approvals';
import type { Workspace } from '../policy/workspace';
import type { FileHistoryRecorder } from '../session/fileHistoryRecorder';
import type { PermissionMode } from '../session/records';
import type { Session } from '../session/session';
import type { EngineEvent } from './events';
import type { ToolSet } from './toolRegistry';
import type { TurnExtension } from './turnExtension';

export type StepRequest =
  /** `preApproved`: `allowed-tools` of the command that wrote the prompt, for this turn only (preApproval.ts). */
  | { kind: 'prompt'; text: string; content?: ContentPart[]; preApproved?: PermissionRule[] }
  | { kind: 'steer'; text: string }
  /** `onJournalled` is called once its message is in the journal (a task's notification is delivered then). */
  | { kind: 'notification'; text: string; onJournalled?: () => void }
  /** An automatic turn the engine starts itself (goal continuation): its own turn, origin 'system'. */
  | { kind: 'continuation'; text: string }
  /** A scheduled task fired: its own turn after any running one, origin 'cron'. */
  | { kind: 'cron'; text: string };

export interface LoopSettings {
  /** 0 = unlimited. */
  maxStepsPerTurn: number;
  maxAttemptsPerStep: number;
  /** Retries of one request stop this long after its first failure (default RETRY_BUDGET_MS). */
  retryBudgetMs?: number;
  /** The model client's first-byte and stream-stall time-out; 0 = none (default: the client's). */
  idleTimeoutMs?: number;
  /** The first "the model has not answered yet" notice after this long without a byte; 0 = never (modelWait.ts). */
  waitNoticeMs?: number;
}

/**
 * Capabilities that shape a turn without living in the loop (plan mode, compaction, goals…) plug in
 * here. Each hook is optional; they run in the order given.
 */
/** What an agent's tool calls are judged by: the permission mode, remembered approvals, swarm mode (SPEC §6.7). */
export interface PermissionState {
  mode: PermissionMode;
  sessionApprovals: readonly string[];
  /** `/swarm on`: AgentSwarm is approved without asking. */
  swarmMode?: boolean;
}

/** `[thinking]`: whether to ask for thinking, and at what effort (the model's default otherwise). */
export interface ThinkingSettings {
  enabled: boolean;
  effort?: string;
}

/** Thinking is requested only from models that can think; `always_thinking` models cannot turn it off. */
export function thinkingParams(
  model: ResolvedModel,
  settings: ThinkingSettings = { enabled: true },
): { enabled: boolean; effort?: string } | undefined {
  const always = model.capabilities.includes('always_thinking');
  if (!always && !model.capabilities.includes('thinking')) return undefined;
  if (!settings.enabled && !always) return { enabled: false };
  return { enabled: true, effort: settings.effort ?? model.defaultEffort };
}

export interface AgentDeps {
  /** This agent's id within its session (`main`, or a subagent's id); every event carries it. */
  agentId?: string;
  /**
   * The permission mode and remembered approvals this agent's calls are judged by. Defaults to its own
   * journal's; a subagent reads its parent's mode live and adds the parent's approvals to its own.
   */
  permissions?(): PermissionState;
  thinking?: ThinkingSettings;
  /** Everything that shapes a turn from outside the loop, the extension gate among them (turnExtension.ts). */
  extensions?: TurnExtension[];
  session: Session;
  model: ResolvedModel;
  getClient(): Promise<ModelClient>;
  /** Read before every model request: a registry whose tools change is offered anew at the next step. */
  tools: ToolSet;
  systemPrompt: string;
  settings: LoopSettings;
  rules: PermissionRule[];
  approvalPort?: ApprovalPort;
  /** Canonical folders the session works in (workspace.ts): paths outside them ask, or are refused in auto mode. */
  workspace: Workspace;
  isSensitivePath(path: string): boolean;
  services: ToolServices;
  cwd: string;
  onEvent(event: EngineEvent): void;
  /** Overrides the retry back-off (tests use 0). */
  retryDelay?: (attempt: number, error: ProviderError) => number;
  /** Settles when session-start handlers are done; the first turn waits for it. */
  ready?: Promise<void>;
  /** The session's file history (fileHistoryRecorder.ts); absent: writes keep no prior copies. */
  fileHistory?: FileHistoryRecorder;
}
