// What a slash command sees of the app (CommandHost), what a command's own panel gets (PanelHost) and the
// command's own shape. The commands themselves are in slashCommands.ts and the modules it lists.
import type { Component } from '@mariozechner/pi-tui';
import type { CompactionThresholds } from '../engine/context/context';
import type { ForkResult } from '../engine/session/fork';
import type { PermissionRule } from '../engine/policy/approvals';
import type { PermissionMode } from '../engine/session/records';
import type { Runtime } from '../engine/runtime/runtime';
import type { Session } from '../engine/session/session';
import type { McpManager } from '../ext/mcp/mcpManager';
import type { SessionLocation } from '../store/sessionStore';
import type { TokenCountingStrategy } from '../store/settings';
import type { CommandInfo } from './completion';
import type { RemoteControl } from './remote/remoteControl';
import type { Theme } from './theme';
import type { TuiPreferences } from './tuiPreferences';

export interface PickItem {
  value: string;
  label: string;
  description?: string;
}

/** What commands may do to the app. */
export interface CommandHost {
  readonly version: string;
  readonly cwd: string;
  readonly home: string;
  readonly busy: boolean;
  readonly session: Session | undefined;
  readonly modelLabel: string;
  readonly modelAliases: string[];
  readonly contextTokens: number;
  readonly contextLimit: number;
  readonly configPath: string;
  /** The permission rules this UI was started with (they apply to every session it opens). */
  readonly permissionRules: readonly PermissionRule[];
  /** The open runtime; undefined before the first message of a new session. */
  readonly runtime: Runtime | undefined;
  readonly tokenCounting?: TokenCountingStrategy;
  readonly compactionThresholds?: CompactionThresholds;
  /** True while /compact or an automatic compaction runs. */
  readonly compacting: boolean;
  mode: PermissionMode;
  /** Plan mode; set before the session exists, it applies when the session starts. */
  planMode: boolean;
  /** Swarm mode (/swarm): AgentSwarm is approved without asking. */
  swarmMode: boolean;
  /** Sends `task` as a prompt in swarm mode; swarm mode ends with that turn when this turned it on. */
  sendSwarmTask(task: string): void;
  /** Sends a prompt the user sees as `text` while the model receives `modelText` (/tower <objective>). */
  sendCommandPrompt(text: string, modelText: string): void;
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  popup(title: string, lines: string[]): void;
  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void;
  /** Opens a panel of the command's own in the input box's place (`/goal next manage`). */
  showPanel(make: (host: PanelHost) => Component): void;
  readonly theme: Theme;
  newSession(): Promise<void>;
  resumeSession(location: SessionLocation): Promise<void>;
  switchModel(alias: string): Promise<void>;
  /** /fork: copies the session (engine/runtime/sessionControl.ts); throws with a message for the user. */
  forkSession(): ForkResult;
  /** Opens the session now if needed (/goal); undefined, with a notice, when it cannot. */
  ensureRuntime(): Runtime | undefined;
  compact(instruction: string): Promise<void>;
  /** Without `count`: the selector of recent prompts. */
  undo(count?: number): void;
  /** The rewind picker: a prompt, then conversation / files / both. */
  rewind(): void;
  copyToClipboard(text: string): void;
  /** The MCP servers of this UI (absent when none are configured). */
  readonly mcp: McpManager | undefined;
  /** Signs in to an OAuth MCP server and reconnects it. */
  mcpLogin(server: string): Promise<void>;
  /** tui.toml as applied now: /theme, /reload-tui. */
  readonly preferences: TuiPreferences;
  /** Full-screen mode (/fullscreen): the alternate screen with a scrollable conversation. */
  fullScreen: boolean;
  /** `/reload`: the session reopens with config.toml, tui.toml, plugins, skills, agents, hooks and MCP servers read again. */
  reload(): Promise<void>;
  /** The environment and `[web] allow_private_network`, for plugin installs and marketplaces (docs/plugins.md). */
  readonly pluginSettings: { env: NodeJS.ProcessEnv; allowPrivateNetwork: boolean };
  exit(): void;
  /** `/remote` (docs/remote.md); absent in front ends that cannot share their session. */
  readonly remote?: RemoteControl;
}

/** What a command's own panel gets: how to close itself, the terminal's size, a redraw. */
export interface PanelHost {
  close(): void;
  readonly terminal: { readonly rows: number; readonly columns: number };
  requestRender(): void;
}

export interface SlashCommand extends CommandInfo {
  /** Rejected while a turn runs (docs/ui.md: "idle"). */
  idleOnly?: boolean;
  run(host: CommandHost, args: string): void | Promise<void>;
}
