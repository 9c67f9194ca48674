// `jarvis doctor`: what Jarvis found in the places other coding agents keep things (docs/compatibility.md
// "Locations"): each folder or file, what it holds, how many, which entries a Jarvis one of the same name shadows,
// and which locations `[compat]` switched off. Problems found there (a file skipped, an MCP entry refused) make the
// section "needs attention"; notes (a field of a foreign file that is not applied) do not.
import { existsSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { agentRoots, loadAgentCatalog } from '../ext/agents/agentCatalog';
import { loadSkillCatalog, skillRoots } from '../ext/skills/skillCatalog';
import { instructionCandidates, scanInstructionFiles } from '../engine/context/instructionFiles';
import {
  claudeMcpPath,
  COMPAT_KEYS,
  compatSettingsOf,
  foreignAgentFolders,
  foreignSkillFolders,
  type CompatSettings,
  type ForeignFolder,
} from '../store/compat';
import { readConfigFile, type JarvisConfig } from '../store/config';
import { defaultConfig } from '../store/configSchema';
import { loadMcpServers } from '../store/mcpConfig';
import { configPath, displayPath, projectRoot } from '../store/paths';
import { isWorkspaceTrusted } from '../store/trust';
import { claudeCommandLines, claudeJsonLines, claudeSettingsLines } from './doctorClaude';
import { peerCommandLines } from './doctorPeers';
import { commandOwner } from '../engine/runtime/startup/peerStartup';
import type { DoctorContext, DoctorSection, DoctorSectionProvider } from './doctorSections';

export const TOOL_NAMES = {
  claude: 'Claude Code',
  opencode: 'opencode',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  kimi: 'Kimi Code',
} as const;

/** config.toml as doctor's own config check reads it; a broken one is reported there, defaults are used here. */
export function readConfig(home: string): { config: JarvisConfig; note?: string } {
  const file = configPath(home);
  if (!existsSync(file)) return { config: defaultConfig() };
  try {
    return { config: readConfigFile(file).config };
  } catch (e) {
    return { config: defaultConfig(), note: `config.toml could not be used (${(e as Error).message}); defaults` };
  }
}

function under(path: string | undefined, dir: string): boolean {
  return path !== undefined && (path === dir || path.startsWith(dir + sep));
}

function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch (e) {
    // A file where a folder of the path should be: there is no folder here. Anything else is doctor's to report.
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw e;
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function folderLabel(kind: string, f: ForeignFolder, env: NodeJS.ProcessEnv): string {
  return `${kind} ${displayPath(f.dir, env)} (${TOOL_NAMES[f.tool]}, ${f.scope})`;
}

interface Entry {
  name: string;
  path?: string;
}

/** One line per folder: what it holds that is used, what a higher-ranked entry shadows. */
function folderLine(
  label: string,
  f: ForeignFolder,
  word: string,
  used: readonly Entry[],
  shadowed: ReadonlyArray<{ entry: Entry; by: Entry }>,
  env: NodeJS.ProcessEnv,
): string {
  if (f.off) return `${label}: off by [compat] ${COMPAT_KEYS[f.tool]} = false`;
  if (!isDir(f.dir)) return `${label}: not present`;
  const inHere = used.filter((e) => under(e.path, f.dir));
  const hidden = shadowed.filter((s) => under(s.entry.path, f.dir));
  const names = inHere.length ? ` (${inHere.map((e) => e.name).join(', ')})` : '';
  let line = `${label}: ${plural(inHere.length, word)}${names}`;
  if (hidden.length) {
    const shadows = hidden.map((s) => `${s.entry.name} by ${s.by.path ? displayPath(s.by.path, env) : s.by.name}`);
    line += `; shadowed: ${shadows.join(', ')}`;
  }
  return line;
}

export const compatLocationsSection: DoctorSectionProvider = async (ctx: DoctorContext): Promise<DoctorSection> => {
  const { cwd, home, env } = ctx;
  const { config, note } = readConfig(home);
  const compat = compatSettingsOf(config.compat);
  const root = projectRoot(cwd);
  const lines: string[] = note ? [note] : [];
  const problems: string[] = [];
  const notes: string[] = [];
  const foreignProblems = (warnings: readonly string[], dirs: readonly string[]) => {
    for (const w of warnings.filter((w) => dirs.some((d) => w.includes(d))))
      (/skipped:/.test(w) ? problems : notes).push(w);
  };

  const skillFolders = foreignSkillFolders(root, compat, env);
  const skills = await loadSkillCatalog(
    skillRoots({
      home,
      cwd,
      env,
      compat,
      extraDirs: config.extra_skill_dirs,
      mergeAll: config.merge_all_available_skills,
    }),
  );
  const skillShadows = skills.shadowed.map((s) => ({ entry: s.skill, by: s.by }));
  for (const f of skillFolders)
    lines.push(folderLine(folderLabel('skills', f, env), f, 'skill', skills.all, skillShadows, env));
  foreignProblems(
    skills.warnings,
    skillFolders.map((f) => f.dir),
  );

  const agentFolders = foreignAgentFolders(root, compat, env);
  const agents = await loadAgentCatalog(agentRoots({ home, cwd, env, compat, extraDirs: config.extra_agent_dirs }));
  const agentShadows = agents.shadowed.map((s) => ({ entry: s.agent, by: s.by }));
  for (const f of agentFolders)
    lines.push(folderLine(folderLabel('agents', f, env), f, 'agent', agents.all, agentShadows, env));
  foreignProblems(
    agents.warnings,
    agentFolders.map((f) => f.dir),
  );

  const claude = { lines, problems, notes };
  const skillOwner = (name: string) => (skills.get(name) ? `the skill ${name}` : undefined);
  const claudeCommands = await claudeCommandLines(ctx, compat, skillOwner, claude);
  await peerCommandLines(ctx, compat, commandOwner(claudeCommands, skills), claude);
  claudeSettingsLines(ctx, compat, claude);
  lines.push(mcpLine(ctx, compat, problems));
  claudeJsonLines(ctx, compat, claude);
  lines.push(...instructionLines(home, cwd, compat, env, { problems, notes }));
  for (const n of notes) lines.push(`note: ${n}`);
  for (const p of problems) lines.push(`problem: ${p}`);
  return { title: "Other agents' locations", lines, ok: problems.length === 0 };
};

function mcpLine(ctx: DoctorContext, compat: CompatSettings, problems: string[]): string {
  const file = claudeMcpPath(projectRoot(ctx.cwd));
  const label = `mcp ${displayPath(file, ctx.env)} (Claude Code, project)`;
  if (!compat.mcpJson) return `${label}: off by [compat] mcp_json = false`;
  if (!existsSync(file)) return `${label}: not present`;
  const trusted = isWorkspaceTrusted(ctx.home, ctx.cwd);
  const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
  const loaded = loadMcpServers({ home: ctx.home, projectDir: ctx.cwd, trusted, defaults, compat, env: ctx.env });
  const names = [...loaded.servers, ...loaded.untrusted, ...loaded.changed]
    .filter((s) => s.file === file)
    .map((s) => s.name);
  problems.push(...loaded.warnings.filter((w) => w.startsWith(displayPath(file))));
  let line = `${label}: ${plural(names.length, 'server')}${names.length ? ` (${names.join(', ')})` : ''}`;
  if (names.length && !trusted) line += '; not started: this workspace is not trusted';
  if (loaded.changedFiles.includes(file)) line += '; not started: changed since this workspace was trusted';
  const shadowed = loaded.shadowed.map((s) => s.name);
  if (shadowed.length) line += `; shadowed by .jarvis-code/mcp.json: ${shadowed.join(', ')}`;
  return line;
}

function importsNote(imports: readonly string[]): string {
  return imports.length ? ` (with ${plural(imports.length, 'import')})` : '';
}

function instructionLines(
  home: string,
  cwd: string,
  compat: CompatSettings,
  env: NodeJS.ProcessEnv,
  out: { problems: string[]; notes: string[] },
): string[] {
  const scan = scanInstructionFiles(home, cwd, compat);
  // A refused or unreadable import is a problem; one that is missing, too deep, a cycle or over budget is a note.
  out.problems.push(
    ...scan.warnings.filter((w) => /^(agents-md-unreadable|claude-import-(refused|unreadable))/.test(w)),
  );
  out.notes.push(...scan.warnings.filter((w) => /^claude-import-(missing|cycle|depth|cut)/.test(w)));
  const read = new Map(scan.files.map((f) => [f.path, f]));
  const dupes = new Map(scan.duplicates.map((d) => [d.path, d.of]));
  const lines: string[] = [];
  for (const c of instructionCandidates(home, cwd, compat)) {
    if (!existsSync(c.path)) continue;
    const where = c.nested ? ` (nested, ${relative(projectRoot(cwd), c.path)})` : '';
    const label = `instructions ${displayPath(c.path, env)}${where}`;
    const file = read.get(c.path);
    if (c.offBy) lines.push(`${label}: off by [compat] ${c.offBy} = false`);
    else if (dupes.has(c.path)) lines.push(`${label}: same as ${displayPath(dupes.get(c.path) ?? '', env)}, read once`);
    else if (!file) lines.push(`${label}: empty or unreadable, not used`);
    else if (file.cutBytes)
      lines.push(`${label}: ${file.bytes} bytes, ${file.cutBytes} cut by the budget${importsNote(file.imports)}`);
    else lines.push(`${label}: ${file.bytes} bytes, read${importsNote(file.imports)}`);
  }
  if (!lines.length) lines.push('instructions: no AGENTS.md or CLAUDE.md from the repository root to here');
  return lines;
}
