// `jarvis doctor`, the files of opencode, Codex, Gemini CLI and Kimi Code that are not skills or agents
// (docs/compatibility.md): their command folders — what each gave, what a command of the same name shadows, what could
// not be read and why, and each field that is not applied. A file that cannot be used is a problem; a field that is
// not applied, or a shadowed command, is a note.
import { existsSync } from 'node:fs';
import { loadPeerCommands } from '../ext/commands/peerCommands';
import { COMPAT_KEYS, peerCommandFolders, type CompatSettings } from '../store/compat';
import { displayPath, projectRoot } from '../store/paths';
import type { ClaudeDoctorOut } from './doctorClaude';
import type { DoctorContext } from './doctorSections';
import { readOpencodeConfigs } from '../store/opencodeConfig';
import { opencodeJsonCommands } from '../ext/commands/opencodeJsonCommands';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const TOOL = { opencode: 'opencode', codex: 'Codex', gemini: 'Gemini CLI' } as const;

/** Lines for the command folders of opencode, Gemini CLI and Codex; `taken` names what already owns a name. */
export async function peerCommandLines(
  ctx: DoctorContext,
  compat: CompatSettings,
  taken: (name: string) => string | undefined,
  out: ClaudeDoctorOut,
): Promise<void> {
  const load = await loadPeerCommands(peerCommandFolders(projectRoot(ctx.cwd), compat, ctx.env), taken);
  for (const { folder, names } of load.found) {
    const label = `commands ${displayPath(folder.dir, ctx.env)} (${TOOL[folder.format]}, ${folder.scope})`;
    if (folder.off) out.lines.push(`${label}: off by [compat] ${COMPAT_KEYS[folder.tool]} = false`);
    else if (!existsSync(folder.dir)) out.lines.push(`${label}: not present`);
    else
      out.lines.push(`${label}: ${plural(names.length, 'command')}${names.length ? ` (/${names.join(', /')})` : ''}`);
  }
  const warnings: string[] = [];
  const configs = readOpencodeConfigs(projectRoot(ctx.cwd), compat, ctx.env, warnings);
  const json = opencodeJsonCommands(
    configs,
    (name) => taken(name) ?? (load.commands.some((c) => c.name === name) ? 'a command file' : undefined),
  );
  for (const file of configs) {
    const names = json.commands.filter((c) => c.path === file.path).map((c) => `/${c.name}`);
    const agents = Object.keys((file.data.agent ?? file.data.agents ?? {}) as object);
    const servers = Object.keys((file.data.mcp ?? {}) as object);
    out.lines.push(
      `config ${displayPath(file.path, ctx.env)} (opencode, ${file.scope}): ${plural(names.length, 'command')}${names.length ? ` (${names.join(', ')})` : ''}, ` +
        `${plural(agents.length, 'agent')}${agents.length ? ` (${agents.join(', ')})` : ''}, ${plural(servers.length, 'MCP server')}${servers.length ? ` (${servers.join(', ')})` : ''}`,
    );
  }
  out.problems.push(...warnings, ...json.warnings);
  load.skipped.push(...json.skipped);
  load.commands.push(...json.commands);
  for (const s of load.skipped)
    (s.why.startsWith('shadowed') ? out.notes : out.problems).push(`${displayPath(s.path, ctx.env)}: ${s.why}`);
  for (const c of load.commands) for (const n of c.notes ?? []) out.notes.push(`${displayPath(c.path, ctx.env)}: ${n}`);
}
