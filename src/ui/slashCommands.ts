// The slash commands (docs/ui.md) this UI implements. A command is listed only if it works.
import { contextBreakdown, type CompactionThresholds } from '../engine/context/context';
import { exportMarkdown } from '../engine/runtime/exportMarkdown';
import type { ForkResult } from '../engine/session/fork';
import type { PermissionRule } from '../engine/policy/approvals';
import type { PermissionMode } from '../engine/session/records';
import type { Runtime } from '../engine/runtime/runtime';
import type { Session } from '../engine/session/session';
import { displayPath } from '../store/paths';
import { listSessions, type SessionLocation } from '../store/sessionStore';
import type { TokenCountingStrategy } from '../store/settings';
import { toolSchemaForModel } from '../tools/defineTool';
import type { CommandInfo } from './completion';
import { contextPercent } from './footer';
import { n, usageLines } from './usageView';
import { helpLines } from './keymap';
import { permissionsLines } from './permissionsView';
import { MCP_COMMANDS } from './mcpCommands';
import { SWARM_COMMAND } from './swarmCommand';
import { LOOK_COMMANDS } from './lookCommands';
import type { TuiPreferences } from './tuiPreferences';
import { TOWER_COMMAND } from './towerCommand';
import { memoryCommand } from './memoryCommand';
import { GOAL_COMMAND } from './goalCommand';
import { PLUGIN_COMMANDS } from './plugins/pluginEntry';
import type { McpManager } from '../ext/mcp/mcpManager';
import type { Component } from '@mariozechner/pi-tui';
import type { Theme } from './theme';

export const TITLE_MAX = 200;

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

const MODE_LABEL: Record<PermissionMode, string> = { manual: 'Manual', yolo: 'YOLO', auto: 'Auto' };

function toggleMode(host: CommandHost, target: PermissionMode, args: string): void {
  const word = args.trim().toLowerCase();
  if (word && word !== 'on' && word !== 'off') {
    host.notice('error', `Expected on or off, got "${args.trim()}".`);
    return;
  }
  const on = word === 'on' ? true : word === 'off' ? false : host.mode !== target;
  host.mode = on ? target : host.mode === target ? 'manual' : host.mode;
  host.notice('info', `Permission mode: ${MODE_LABEL[host.mode]}.`);
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

export const SLASH_COMMANDS: SlashCommand[] = [
  {
    name: 'help',
    aliases: ['h', '?'],
    description: 'keys and commands',
    run: (h) => h.popup('Jarvis Code — help', helpLines(SLASH_COMMANDS)),
  },
  { name: 'new', aliases: ['clear'], description: 'start a fresh session', idleOnly: true, run: (h) => h.newSession() },
  {
    name: 'sessions',
    aliases: ['resume'],
    description: 'switch to another session of this folder',
    idleOnly: true,
    run(h) {
      const sessions = listSessions(h.home, h.cwd).filter((s) => s.sessionId !== h.session?.id);
      if (!sessions.length) {
        h.notice('info', `No other sessions in ${displayPath(h.cwd)}.`);
        return;
      }
      const byId = new Map(sessions.map((s) => [s.sessionId, s]));
      h.pick(
        'Resume a session',
        sessions.slice(0, 50).map((s) => ({
          value: s.sessionId,
          label: (s.summary?.title ?? s.summary?.lastPrompt ?? '(no prompt yet)').split('\n')[0].slice(0, 60),
          description: `${ago(s.updatedMs)} · ${s.sessionId.slice(-8)}`,
        })),
        (id) => void h.resumeSession(byId.get(id)!),
      );
    },
  },
  {
    name: 'model',
    aliases: [],
    description: 'switch the model for this session',
    run(h, args) {
      const alias = args.trim();
      if (alias) return h.switchModel(alias);
      if (!h.modelAliases.length) {
        h.notice(
          'info',
          `Model: ${h.modelLabel}. No other models are configured.`,
          `Add [models.<alias>] tables to ${displayPath(h.configPath)} to switch between models.`,
        );
        return;
      }
      h.pick(
        'Switch model',
        h.modelAliases.map((a) => ({ value: a, label: a })),
        (a) => void h.switchModel(a),
        ['Switching models invalidates the provider prompt cache; /new starts a fresh session.'],
      );
    },
  },
  { name: 'yolo', aliases: ['yes'], description: 'toggle YOLO mode (on|off)', run: (h, a) => toggleMode(h, 'yolo', a) },
  { name: 'auto', aliases: [], description: 'toggle auto mode (on|off)', run: (h, a) => toggleMode(h, 'auto', a) },
  {
    name: 'permission',
    aliases: [],
    description: 'choose the permission mode',
    run(h) {
      const modes: PermissionMode[] = ['manual', 'yolo', 'auto'];
      const desc: Record<PermissionMode, string> = {
        manual: 'ask before risky actions',
        yolo: 'approve regular tools; sensitive files and paths outside the workspace still ask',
        auto: 'never ask; sensitive files and paths outside the workspace are refused',
      };
      h.pick(
        'Permission mode',
        modes.map((m) => ({
          value: m,
          label: `${MODE_LABEL[m]}${m === h.mode ? ' (current)' : ''}`,
          description: desc[m],
        })),
        (m) => {
          h.mode = m as PermissionMode;
          h.notice('info', `Permission mode: ${MODE_LABEL[h.mode]}.`);
        },
      );
    },
  },
  {
    name: 'title',
    aliases: ['rename'],
    description: 'show or set the session title',
    run(h, args) {
      const title = args.trim();
      if (!title) {
        h.notice('info', `Title: ${h.session?.state.title ?? '(none yet)'}`);
        return;
      }
      if (!h.session) {
        h.notice('warning', 'There is no session yet: send a first message, then set its title.');
        return;
      }
      if (title.length > TITLE_MAX) {
        h.notice('error', `A title is at most ${TITLE_MAX} characters (this one has ${title.length}).`);
        return;
      }
      h.session.commit({ type: 'title', title });
      h.session.saveSummary();
      h.notice('success', `Title set: ${title}`);
    },
  },
  {
    name: 'status',
    aliases: [],
    description: 'version, model, folder, mode, session',
    run(h) {
      h.popup('Status', [
        `Version      ${h.version}`,
        `Model        ${h.modelLabel}`,
        `Folder       ${h.cwd}`,
        `Mode         ${MODE_LABEL[h.mode]}`,
        `Session      ${h.session?.id ?? '(starts with the first message)'}`,
        `Title        ${h.session?.state.title ?? '-'}`,
        `Context      ${contextPercent(h.contextTokens, h.contextLimit)}% (${h.contextTokens} of ${h.contextLimit} tokens)`,
        `Config       ${displayPath(h.configPath)}`,
      ]);
    },
  },
  {
    name: 'permissions',
    aliases: [],
    description: 'the permission rules in force and where each was written',
    run(h) {
      const sessionApprovals = h.session?.state.sessionApprovals ?? [];
      h.popup(
        'Permissions',
        permissionsLines({
          modeLabel: MODE_LABEL[h.mode],
          rules: h.permissionRules,
          sessionApprovals,
          configPath: h.configPath,
        }),
      );
    },
  },
  {
    name: 'usage',
    aliases: [],
    description: "context use by source and the session's token totals",
    run(h) {
      const rt = h.runtime;
      if (!rt) {
        h.popup('Usage', [
          `Context      0% of ${n(h.contextLimit)} tokens`,
          '',
          'The session starts with your first message; nothing has been sent yet.',
        ]);
        return;
      }
      const offered = rt.offered.list();
      const frame = { system: rt.session.state.systemPrompt ?? '', tools: offered.map(toolSchemaForModel) };
      const catalog = rt.offered.catalog();
      const counts = {
        offered: offered.length,
        deferred: catalog.length,
        loaded: catalog.filter((e) => e.loaded).length,
      };
      h.popup(
        'Usage',
        usageLines(
          contextBreakdown(
            rt.session.state,
            frame,
            { maxContextSize: h.contextLimit },
            { strategy: h.tokenCounting, thresholds: h.compactionThresholds },
          ),
          rt.session.state.turns,
          counts,
        ),
      );
    },
  },
  memoryCommand,
  {
    name: 'version',
    aliases: [],
    description: 'the version',
    run: (h) => h.notice('info', `Jarvis Code ${h.version}`),
  },
  {
    name: 'export-md',
    aliases: ['export'],
    description: 'write the conversation to a Markdown file',
    idleOnly: true,
    run(h, args) {
      const s = h.session;
      if (!s) {
        h.notice('warning', 'Nothing to export yet: the session starts with the first message.');
        return;
      }
      try {
        const { path } = exportMarkdown(s, { cwd: h.cwd, path: args.trim() || undefined });
        h.notice('success', `Exported to ${displayPath(path)}`);
      } catch (e) {
        h.notice('error', (e as Error).message, 'Give another path: /export-md <path>.');
      }
    },
  },
  {
    name: 'plan',
    aliases: [],
    description: 'plan mode: on, off, clear (no argument toggles)',
    run(h, args) {
      const word = args.trim().toLowerCase();
      if (word === 'clear') return clearPlan(h);
      if (word && word !== 'on' && word !== 'off') {
        h.notice('error', `Expected on, off or clear, got "${args.trim()}".`);
        return;
      }
      const on = word === 'on' ? true : word === 'off' ? false : !h.planMode;
      if (on === h.planMode) h.notice('info', `Plan mode is already ${on ? 'on' : 'off'}.`);
      else h.planMode = on;
    },
  },
  GOAL_COMMAND,
  {
    name: 'compact',
    aliases: [],
    description: 'summarise the conversation to free context (optional instruction)',
    idleOnly: true,
    run: (h, args) => h.compact(args.trim()),
  },
  {
    name: 'undo',
    aliases: [],
    description: 'withdraw the last n prompts (no n: pick from a list)',
    idleOnly: true,
    run(h, args) {
      const word = args.trim();
      if (!word) return h.undo();
      const count = Number(word);
      if (!Number.isInteger(count) || count < 1) {
        h.notice('error', `Expected a number of prompts (1 or more), got "${word}".`);
        return;
      }
      h.undo(count);
    },
  },
  {
    name: 'rewind',
    aliases: [],
    description: 'go back to before a prompt: conversation, files, or both',
    idleOnly: true,
    run: (h) => h.rewind(),
  },
  {
    name: 'fork',
    aliases: [],
    description: 'copy this session (you stay in this one)',
    idleOnly: true,
    run(h) {
      const rt = h.runtime;
      if (!rt) {
        h.notice('warning', 'Nothing to fork yet: the session starts with the first message.');
        return;
      }
      try {
        const fork = h.forkSession();
        h.copyToClipboard(fork.resumeCommand);
        h.notice(
          'success',
          `Forked this session. Continue the copy with: ${fork.resumeCommand}`,
          `You are still in ${rt.session.id}. The command was also sent to the clipboard (where the terminal allows it).`,
        );
      } catch (e) {
        h.notice('error', (e as Error).message);
      }
    },
  },
  { name: 'exit', aliases: ['quit', 'q'], description: 'quit', idleOnly: true, run: (h) => h.exit() },
  ...MCP_COMMANDS,
  SWARM_COMMAND,
  ...LOOK_COMMANDS,
  ...PLUGIN_COMMANDS,
  TOWER_COMMAND,
];

function clearPlan(h: CommandHost): void {
  if (h.busy || h.compacting) {
    h.notice('warning', '/plan clear is not available while the agent works.', 'Press Esc to interrupt first.');
    return;
  }
  const rt = h.runtime;
  if (!rt?.plan.planPath) {
    h.notice('info', 'There is no plan to clear yet.');
    return;
  }
  const path = rt.plan.clearPlan();
  h.notice('success', `Plan cleared. The next plan goes to ${displayPath(path)}.`);
}

export function findCommand(name: string): SlashCommand | undefined {
  const n = name.toLowerCase();
  return SLASH_COMMANDS.find((c) => c.name === n || c.aliases.includes(n));
}

/** `/name args` → the command and its arguments; undefined when the text is not a known command. */
export function parseSlash(text: string): { command: SlashCommand; args: string } | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const command = findCommand(m[1]);
  return command ? { command, args: m[2] ?? '' } : undefined;
}
