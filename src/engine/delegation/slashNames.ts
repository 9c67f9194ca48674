// The names a prompt may start with as `/name` in this session, and what happens to one that names nothing
// (docs/skills-and-agents.md, "Unknown /names"). knownSlashNames is the one list of them: every source of
// slash names — a front end's own commands, skills, plugins' commands, and any other source added later —
// joins it there, so the TUI, print mode and ACP refuse the same unknown names with the same suggestions.
// A first word that is a path (`/usr/bin/x`, or one that exists on disk) is not a command: it goes as text.
import { existsSync } from 'node:fs';
import type { SkillCatalog } from '../../ext/skills/skillCatalog';
import type { PluginCommand } from '../../ext/plugins/pluginCommands';

export type SlashNameKind = 'command' | 'skill' | 'plugin command';

export interface SlashName {
  /** What follows the `/`: `help`, `skill:commit`, `commit`, `acme:report`. */
  name: string;
  kind: SlashNameKind;
}

/** Where a session's slash names come from. A new kind of command joins here and in knownSlashNames. */
export interface SlashNameSources {
  /** The front end's own commands, names and aliases (`help`, `h`, `compact`…). */
  frontEnd: readonly string[];
  skills?: SkillCatalog;
  plugins?: { readonly commands: readonly PluginCommand[] };
}

/**
 * Every `/name` this session knows: the front end's commands, each skill as `/skill:<name>` and — unless a
 * command has that name — `/<name>`, and each plugin command as `/<plugin>:<command>`.
 */
export function knownSlashNames(sources: SlashNameSources): SlashName[] {
  const names: SlashName[] = sources.frontEnd.map((name) => ({ name, kind: 'command' }));
  const taken = new Set(sources.frontEnd.map((n) => n.toLowerCase()));
  for (const skill of sources.skills?.all ?? []) {
    names.push({ name: `skill:${skill.name}`, kind: 'skill' });
    if (skill.type === 'flow') names.push({ name: `flow:${skill.name}`, kind: 'skill' });
    if (!taken.has(skill.name.toLowerCase())) names.push({ name: skill.name, kind: 'skill' });
  }
  for (const command of sources.plugins?.commands ?? []) names.push({ name: command.name, kind: 'plugin command' });
  return names;
}

/** The first word when it is shaped like a command name: a letter, then no `/` before any `:`. */
const COMMAND_WORD = /^\/([A-Za-z][\w.-]*(?::\S*)?)(?=\s|$)/;

/** Edit distance with adjacent transpositions (optimal string alignment), for the closest names. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** At most this many names are suggested. */
export const SLASH_SUGGESTIONS_MAX = 4;

/** The known names closest to `typed`: small edit distances, then names that start with or contain it. */
export function closestSlashNames(typed: string, known: readonly SlashName[]): SlashName[] {
  const t = typed.toLowerCase();
  const scored = known.map((k) => {
    const name = k.name.toLowerCase();
    // `skill:x` is compared by its own part as well, so `/comit` finds `/skill:commit`.
    const bare = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
    const d = Math.min(distance(t, name), distance(t, bare));
    const near = d <= Math.max(1, Math.floor(t.length / 3));
    const part = t.length >= 3 && (name.startsWith(t) || bare.startsWith(t) || name.includes(t));
    return { k, score: near ? d : part ? d / 10 + 3 : Infinity };
  });
  const seen = new Set<string>();
  return scored
    .filter((s) => s.score !== Infinity)
    .sort((a, b) => a.score - b.score || a.k.name.localeCompare(b.k.name))
    .map((s) => s.k)
    .filter((k) => {
      // A skill is suggested once, in the form closest to what was typed.
      const key = k.kind === 'skill' ? k.name.replace(/^skill:/i, '').toLowerCase() : k.name;
      if (seen.has(`${k.kind}:${key}`)) return false;
      seen.add(`${k.kind}:${key}`);
      return true;
    })
    .slice(0, SLASH_SUGGESTIONS_MAX);
}

export interface UnknownSlashName {
  /** The name as typed, without the `/`. */
  name: string;
  message: string;
}

/**
 * `/name …` at the start of `input` that names no command, skill or plugin command of this session: a message
 * naming the closest ones. Undefined for anything else — plain text, a known name, a path (`/usr/bin/x …`, or
 * a first word that exists on disk). `hint` ends the message when nothing is close (how to list the names).
 */
export function unknownSlashName(
  input: string,
  known: readonly SlashName[],
  hint: string,
  exists: (path: string) => boolean = existsSync,
): UnknownSlashName | undefined {
  const m = COMMAND_WORD.exec(input);
  if (!m) return undefined;
  const name = m[1];
  const lower = name.toLowerCase();
  if (known.some((k) => k.name.toLowerCase() === lower)) return undefined;
  if (exists(`/${name}`)) return undefined;
  const closest = closestSlashNames(name, known);
  const suggestion = closest.length ? `Did you mean ${closest.map((k) => `/${k.name} (${k.kind})`).join(', ')}?` : hint;
  return {
    name,
    message:
      `Unknown command /${name}: no command, skill or plugin command has that name, so nothing was sent. ${suggestion} ` +
      'To send text that starts with "/", begin it with a space.',
  };
}
