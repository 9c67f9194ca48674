// Hooks written in Claude Code's format (docs/hooks.md, "Claude Code hooks"): the `hooks` object of a plugin's
// `hooks/hooks.json` and of `.claude/settings*.json` —
// `{"<Event>": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "…", "timeout": 30}]}]}` —
// read into hook specs of the `claude` dialect, which run the way Claude Code runs them (claudeHookPayload.ts,
// claudeHookOutput.ts). What Jarvis cannot do as written is reported once per file and field, never passed silently:
// another hook type, an event Jarvis does not have, `if`, `asyncRewake`, `"async": true`…; `"async": false` is
// simply how every hook runs.
import { HOOK_EVENTS } from '../../store/configSchema';
import type { HookEventName, HookSpec } from './hookRunner';

/** Claude Code's default time limit of a command hook, in seconds (ours is the same bound: 600). */
export const CLAUDE_HOOK_TIMEOUT_S = 600;
const MAX_TIMEOUT_S = 600;

/** Fields of a command hook that Jarvis reads. */
const READ_FIELDS = new Set(['type', 'command', 'timeout', 'async']);

/** Why a field is not applied, for the fields Claude Code documents; any other field gets a generic reason. */
const NOT_APPLIED: Record<string, string> = {
  if: 'the hook runs for every event its matcher selects',
  asyncRewake: 'the hook runs in the turn, like every hook',
  statusMessage: 'no status line is shown while it runs',
  once: 'the hook runs every time',
  shell: "it runs with Jarvis's shell (JARVIS_SHELL_PATH)",
  args: 'the exec form is not supported; the hook is skipped',
  continueOnBlock: 'a PostToolUse block already lets the turn go on',
  'async: true': 'the hook runs in the turn and is waited for',
};

export interface ClaudeHookSource {
  /** Where the hooks come from, named in the session's warnings: `.claude/settings.json`, `plugin hookify`. */
  origin: string;
  /** How problems name the place (default: `origin`): `hooks hooks/hooks.json`. */
  label?: string;
  /** Extra environment (`CLAUDE_PLUGIN_ROOT` for a plugin's hooks). */
  env?: Record<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The hook specs of one Claude Code `hooks` object (the value of the `hooks` key). `report` receives each problem
 * once: a field Jarvis does not apply is said once per field, naming how many hooks carry it.
 */
export function claudeHookSpecs(hooks: unknown, source: ClaudeHookSource, report: (text: string) => void): HookSpec[] {
  const specs: HookSpec[] = [];
  const label = source.label ?? source.origin;
  if (!isObject(hooks)) {
    report(`${label}: expected {"hooks": {"<Event>": [...]}}; skipped`);
    return specs;
  }
  const unapplied = new Map<string, number>();
  for (const [event, groups] of Object.entries(hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      report(
        `${label}: the event "${event}" does not exist in Jarvis (docs/hooks.md lists the events); its hooks are skipped`,
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      report(`${label}: ${event} must be an array of {matcher, hooks} groups; skipped`);
      continue;
    }
    groups.forEach((group, g) => {
      const at = `${label}: ${event}[${g}]`;
      if (!isObject(group) || !Array.isArray(group.hooks))
        return report(`${at} must be an object with a "hooks" array; skipped`);
      if (group.matcher !== undefined && typeof group.matcher !== 'string')
        return report(`${at}: "matcher" must be a string; skipped`);
      group.hooks.forEach((hook, h) => {
        const spec = commandHook(hook, `${at}.hooks[${h}]`, report, unapplied);
        if (!spec) return;
        specs.push({
          event: event as HookEventName,
          ...(typeof group.matcher === 'string' && group.matcher.trim() ? { matcher: group.matcher.trim() } : {}),
          ...spec,
          dialect: 'claude',
          origin: source.origin,
          ...(source.env ? { env: source.env } : {}),
        });
      });
    });
  }
  for (const [field, count] of unapplied) {
    const why = NOT_APPLIED[field] ?? 'Jarvis has no counterpart for it';
    report(`${label}: "${field}" (on ${count} hook${count > 1 ? 's' : ''}) is not applied: ${why}`);
  }
  return specs;
}

function commandHook(
  hook: unknown,
  at: string,
  report: (text: string) => void,
  unapplied: Map<string, number>,
): { command: string; timeout: number } | undefined {
  if (!isObject(hook)) {
    report(`${at} must be an object; skipped`);
    return undefined;
  }
  if (hook.type !== 'command') {
    report(`${at}: hooks of type ${JSON.stringify(hook.type)} are not supported (only "command"); skipped`);
    return undefined;
  }
  for (const key of Object.keys(hook)) if (!READ_FIELDS.has(key)) unapplied.set(key, (unapplied.get(key) ?? 0) + 1);
  if (hook.args !== undefined) return undefined;
  if (typeof hook.command !== 'string' || !hook.command.trim()) {
    report(`${at}: "command" must be a non-empty string; skipped`);
    return undefined;
  }
  if (hook.async === true) unapplied.set('async: true', (unapplied.get('async: true') ?? 0) + 1);
  else if (hook.async !== undefined && hook.async !== false) report(`${at}: "async" must be true or false; ignored`);
  let timeout = CLAUDE_HOOK_TIMEOUT_S;
  if (hook.timeout !== undefined) {
    if (typeof hook.timeout !== 'number' || !(hook.timeout > 0))
      report(`${at}: "timeout" must be a positive number of seconds; ${CLAUDE_HOOK_TIMEOUT_S} is used`);
    else if (hook.timeout > MAX_TIMEOUT_S)
      report(`${at}: "timeout" ${hook.timeout} is over Jarvis's ${MAX_TIMEOUT_S} s; ${MAX_TIMEOUT_S} is used`);
    else timeout = Math.max(1, Math.ceil(hook.timeout));
    if (typeof hook.timeout === 'number' && hook.timeout > MAX_TIMEOUT_S) timeout = MAX_TIMEOUT_S;
  }
  return { command: hook.command, timeout };
}
