// What `/remote` (docs/remote.md) lends the session server and gets back. The terminal UI cannot import the server
// (DESIGN §1.2: server sits above ui), so the CLI hands the UI a starter (AppOptions.startRemote) that builds the
// server around these interfaces: src/server/remoteServer.ts.
import type { ApprovalAnswer, ApprovalRequest } from '../../engine/policy/approvals';
import type {
  PlanReviewAnswer,
  PlanReviewRequest,
  QuestionRequest,
  QuestionResponse,
} from '../../engine/delegation/interactions';
import type { EngineEvent } from '../../engine/loop/events';
import type { PermissionMode } from '../../engine/session/records';
import type { HeadlessRunOptions } from '../../engine/runtime/headlessRun';
import type { Runtime, RuntimeOptions } from '../../engine/runtime/runtime';
import type { McpManager } from '../../ext/mcp/mcpManager';
import type { ModelChoice } from '../../store/modelChoices';

/** The terminal UI's live session, as the server drives it. */
export interface RemoteTarget {
  readonly runtime: Runtime;
  readonly cwd: string;
  readonly mcp: McpManager | undefined;
  /** The terminal's runtime options: the plugins whose commands a web prompt may name, the permission rules. */
  readonly base: Pick<RuntimeOptions, 'plugins' | 'rules'>;
  /**
   * A prompt from a web client: sent as if typed here, so it shows in the terminal and queues behind a turn; with
   * what the server prepared for it (RemotePrompt), sent as it is (no second expansion or `@path` reading here).
   */
  send(text: string, prepared?: RemotePrompt): void;
  /** Stops the running turn (Esc). */
  interrupt(): void;
  setMode(mode: PermissionMode, plan: boolean): void;
  /** Switches the model (as /model); returns the model id; throws with a message for the client. */
  switchModel(alias: string): string;
  /** The models /model offers, the current one marked. */
  models(): ModelChoice[];
  /** The server's own warnings (a request that failed inside it), as notices: its stderr is this screen. */
  warn(text: string): void;
}

/** What a web client's prompt carries besides its text: a command's expansion, its `@path` files and images. */
export type RemotePrompt = Pick<HeadlessRunOptions, 'promptContent' | 'preApproved' | 'attachments'>;

/** `/remote --host --port`; absent: 127.0.0.1 and the server's default port (or the next free one). */
export interface RemoteSettings {
  host?: string;
  port?: number;
}

/** Who settled a question waiting in both places; `clientId` null: nobody (it expired). */
export interface RemoteSettled<T> {
  value: T;
  clientId: string | null;
}

export interface RemoteWait<T> {
  id: string;
  done: Promise<RemoteSettled<T>>;
}

/** The running server holding the terminal's session. */
export interface RemoteLink {
  readonly url: string;
  /** The address other machines would use, and whether it is this machine only (loopback). */
  readonly exposed: { address: string; loopbackOnly: boolean };
  readonly tokenFile: string;
  /** A one-time login link for a browser (docs/web.md), when the server can mint one. */
  loginLink(): string | undefined;
  /** Web clients connected now. */
  readonly connections: number;
  /** Every engine event of the terminal's session (the server turns them into its events). */
  onEngineEvent(event: EngineEvent): void;
  approval(request: ApprovalRequest, signal: AbortSignal): RemoteWait<ApprovalAnswer>;
  settleApproval(id: string, answer: ApprovalAnswer): boolean;
  questions(request: QuestionRequest, signal: AbortSignal): RemoteWait<QuestionResponse>;
  settleQuestions(id: string, response: QuestionResponse): boolean;
  planReview(request: PlanReviewRequest, signal: AbortSignal): RemoteWait<PlanReviewAnswer>;
  settlePlanReview(id: string, answer: PlanReviewAnswer): boolean;
  close(): Promise<void>;
}

export type RemoteStarter = (target: RemoteTarget, settings: RemoteSettings) => Promise<RemoteLink>;
