// The slash commands (SPEC §2.9) this UI implements. A command is listed only if it works.
import { writeFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { PermissionMode } from '../engine/records';
import type { Session } from '../engine/session';
import { displayPath } from '../store/paths';
import { listSessions, type SessionLocation } from '../store/sessionStore';
import type { CommandInfo } from './completion';
import { exportFileName, sessionToMarkdown } from './exportMarkdown';
import { contextPercent } from './footer';
import { helpLines } from './keymap';

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
  mode: PermissionMode;
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  popup(title: string, lines: string[]): void;
  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void;
  newSession(): Promise<void>;
  resumeSession(location: SessionLocation): Promise<void>;
  switchModel(alias: string): Promise<void>;
  exit(): void;
}

export interface SlashCommand extends CommandInfo {
  /** Rejected while a turn runs (SPEC: "idle"). */
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
  { name: 'help', aliases: ['h', '?'], description: 'keys and commands', run: (h) => h.popup('Jarvis Code — help', helpLines(SLASH_COMMANDS)) },
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
        sessions.slice(0, 50).map((s) => ({ value: s.sessionId, label: (s.summary?.title ?? s.summary?.lastPrompt ?? '(no prompt yet)').split('\n')[0].slice(0, 60), description: `${ago(s.updatedMs)} · ${s.sessionId.slice(-8)}` })),
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
        h.notice('info', `Model: ${h.modelLabel}. No other models are configured.`, `Add [models.<alias>] tables to ${displayPath(h.configPath)} to switch between models.`);
        return;
      }
      h.pick('Switch model', h.modelAliases.map((a) => ({ value: a, label: a })), (a) => void h.switchModel(a), ['Switching models invalidates the provider prompt cache; /new starts a fresh session.']);
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
      const desc: Record<PermissionMode, string> = { manual: 'ask before risky actions', yolo: 'approve regular tools; sensitive files still ask', auto: 'approve everything, never ask' };
      h.pick('Permission mode', modes.map((m) => ({ value: m, label: `${MODE_LABEL[m]}${m === h.mode ? ' (current)' : ''}`, description: desc[m] })), (m) => {
        h.mode = m as PermissionMode;
        h.notice('info', `Permission mode: ${MODE_LABEL[h.mode]}.`);
      });
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
    name: 'usage',
    aliases: [],
    description: 'token usage and context consumption',
    run(h) {
      const u = h.session?.state.usage;
      h.popup('Usage', [
        `Context      ${contextPercent(h.contextTokens, h.contextLimit)}% (${h.contextTokens} of ${h.contextLimit} tokens)`,
        `Input        ${u?.inputTokens ?? 0} tokens`,
        `Output       ${u?.outputTokens ?? 0} tokens`,
        `Cache read   ${u?.cacheReadTokens ?? 0} tokens`,
        `Cache write  ${u?.cacheWriteTokens ?? 0} tokens`,
        `Turns        ${h.session?.state.turns ?? 0}`,
      ]);
    },
  },
  { name: 'version', aliases: [], description: 'the version', run: (h) => h.notice('info', `Jarvis Code ${h.version}`) },
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
      const target = args.trim() ? (isAbsolute(args.trim()) ? args.trim() : resolve(h.cwd, args.trim())) : resolve(h.cwd, exportFileName(s.id));
      try {
        writeFileSync(target, sessionToMarkdown({ title: s.state.title, sessionId: s.id, workDir: s.state.workDir, model: h.modelLabel, messages: s.state.messages }));
        h.notice('success', `Exported to ${displayPath(target)}`);
      } catch (e) {
        h.notice('error', `Could not write ${target}: ${(e as Error).message}`, 'Give another path: /export-md <path>.');
      }
    },
  },
  { name: 'exit', aliases: ['quit', 'q'], description: 'quit', idleOnly: true, run: (h) => h.exit() },
];

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
