// The commands about the session and its settings (docs/ui.md): /sessions, /model, the permission modes,
// /title, /status, /permissions, /usage. slashCommands.ts lists them with the others.
import { contextBreakdown } from '../engine/context/context';
import type { PermissionMode } from '../engine/session/records';
import { displayPath } from '../store/paths';
import { listSessions } from '../store/sessionStore';
import { toolSchemaForModel } from '../tools/defineTool';
import type { CommandHost, SlashCommand } from './commandHost';
import { contextPercent } from './footer';
import { permissionsLines } from './permissionsView';
import { n, usageLines } from './usageView';
import { sessionUsageByModel } from '../engine/session/usageByModel';

export const TITLE_MAX = 200;

export const MODE_LABEL: Record<PermissionMode, string> = { manual: 'Manual', yolo: 'YOLO', auto: 'Auto' };

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

export const SESSION_COMMANDS: SlashCommand[] = [
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
          sessionUsageByModel(rt.session.dir, rt.session.state),
        ),
      );
    },
  },
];
