// Finds the skills of a launch (SPEC §9.1). Priority, highest first: project (`.jarvis-code/skills`,
// `.agents/skills` at the project root) > user (`$JARVIS_CODE_HOME/skills`, `~/.agents/skills`) >
// `extra_skill_dirs` > plugins > built-in; Claude Code's `.claude/skills` ranks last among the project roots and
// `~/.claude/skills` last among the user ones (docs/compatibility.md, `[compat] claude`). `--skills-dir` replaces
// the project and user roots for the launch.
// Names are case-insensitive; the first skill of a name wins, and in one folder a `<name>/SKILL.md`
// beats a flat `<name>.md`. Broken files are skipped with a warning, never fatal.
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_COMPAT, foreignSkillFolders, type CompatSettings, type ForeignTool } from '../../store/compat';
import { crossToolHome, expandTilde, projectRoot } from '../../store/paths';
import { isModelInvocable, parseSkillFile, type Skill, type SkillSource } from './skillFile';

export interface SkillRoot {
  dir: string;
  source: SkillSource;
  /** Another agent's folder (docs/compatibility.md). */
  tool?: ForeignTool;
}

export interface SkillRootOptions {
  home: string;
  cwd: string;
  /** `--skills-dir` (replaces project and user roots when given). */
  skillsDirs?: string[];
  /** `extra_skill_dirs` from config.toml. */
  extraDirs?: string[];
  /** `merge_all_available_skills = false`: only the first existing project/user root is read. */
  mergeAll?: boolean;
  env?: NodeJS.ProcessEnv;
  /** `[compat]`: whether Claude Code's skill folders are read (default: yes). */
  compat?: CompatSettings;
}

export function skillRoots(o: SkillRootOptions): SkillRoot[] {
  const env = o.env ?? process.env;
  const abs = (d: string) => resolve(o.cwd, expandTilde(d, env));
  let primary: SkillRoot[];
  if (o.skillsDirs?.length) {
    primary = o.skillsDirs.map((d) => ({ dir: abs(d), source: 'user' as const }));
  } else {
    const root = projectRoot(o.cwd);
    const foreign = foreignSkillFolders(root, o.compat ?? DEFAULT_COMPAT, env)
      .filter((f) => !f.off)
      .map((f) => ({ dir: f.dir, source: f.scope, tool: f.tool }));
    primary = [
      { dir: join(root, '.jarvis-code', 'skills'), source: 'project' },
      { dir: join(root, '.agents', 'skills'), source: 'project' },
      ...foreign.filter((f) => f.source === 'project'),
      { dir: join(o.home, 'skills'), source: 'user' },
      { dir: join(crossToolHome(env), 'skills'), source: 'user' },
      ...foreign.filter((f) => f.source === 'user'),
    ];
    if (o.mergeAll === false) primary = primary.filter((r) => isDir(r.dir)).slice(0, 1);
  }
  return [...primary, ...(o.extraDirs ?? []).map((d) => ({ dir: abs(d), source: 'extra' as const }))];
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export class SkillCatalog {
  private readonly byName = new Map<string, Skill>();
  /** Skills not used because a higher-ranked one has their name (`jarvis doctor` lists them). */
  readonly shadowed: Array<{ skill: Skill; by: Skill }> = [];

  constructor(
    skills: Skill[],
    readonly warnings: string[] = [],
  ) {
    for (const skill of skills) {
      const winner = this.byName.get(skill.name.toLowerCase());
      if (winner) this.shadowed.push({ skill, by: winner });
      else this.byName.set(skill.name.toLowerCase(), skill);
    }
  }

  get all(): Skill[] {
    return [...this.byName.values()];
  }

  get(name: string): Skill | undefined {
    return this.byName.get(name.toLowerCase());
  }

  /** Skills the model may load itself (not `flow`, not `disableModelInvocation`). */
  get modelInvocable(): Skill[] {
    return this.all.filter(isModelInvocable);
  }
}

/** Reads one root: folder skills first (they win over same-named flat files), then flat `.md` files. */
/** How deep below a Codex skill folder a SKILL.md is looked for. */
const CODEX_SKILL_DEPTH = 4;

export async function readSkillRoot(root: SkillRoot, warnings: string[], depth = 0): Promise<Skill[]> {
  let entries;
  try {
    entries = readdirSync(root.dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return [];
  }
  const skills: Skill[] = [];
  const add = async (path: string, form: 'dir' | 'flat') => {
    const parsed = await parseSkillFile(path, form, root.source);
    if (!parsed.ok) warnings.push(`skill skipped: ${parsed.message}`);
    else {
      skills.push(parsed.skill);
      warnings.push(...parsed.warnings.map((w) => `skill: ${w}`));
    }
    return parsed.ok ? parsed.skill : undefined;
  };
  for (const e of entries) {
    const path = join(root.dir, e.name);
    if (!(e.isDirectory() || (e.isSymbolicLink() && isDir(path)))) continue;
    if (isFile(join(path, 'SKILL.md'))) {
      const parent = await add(join(path, 'SKILL.md'), 'dir');
      if (parent?.subSkills) await readSubSkills(parent, root, warnings, skills);
    } else if (root.tool === 'codex' && !e.name.startsWith('.') && depth < CODEX_SKILL_DEPTH) {
      // Codex finds a SKILL.md at any depth of its folder (`~/.codex/skills/team/deploy/SKILL.md`); its own
      // `.system` skills are Codex's, not the user's.
      skills.push(...(await readSkillRoot({ ...root, dir: path }, warnings, depth + 1)));
    }
  }
  for (const e of entries) {
    const path = join(root.dir, e.name);
    // Codex knows folder skills only; a README.md beside them is no skill.
    if (root.tool === 'codex') break;
    if (/\.md$/i.test(e.name) && e.name !== 'SKILL.md' && isFile(path)) await add(path, 'flat');
  }
  return skills;
}

/**
 * A parent that opts in (`sub-skills: true`) lends its name to the skills in its own folders:
 * `<parent>/<folder>/SKILL.md` named `review` loads as `<parent>.review` (docs/skills-and-agents.md).
 * One level only: a sub-skill's own folders are its supporting files.
 */
async function readSubSkills(parent: Skill, root: SkillRoot, warnings: string[], into: Skill[]): Promise<void> {
  let entries;
  try {
    entries = readdirSync(parent.dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch (e) {
    warnings.push(`sub-skills of ${parent.name}: ${parent.dir} cannot be listed (${(e as Error).message})`);
    return;
  }
  for (const e of entries) {
    const file = join(parent.dir, e.name, 'SKILL.md');
    if (!e.isDirectory() || e.name.startsWith('.') || !isFile(file)) continue;
    const parsed = await parseSkillFile(file, 'dir', root.source);
    if (!parsed.ok) {
      warnings.push(`skill skipped: ${parsed.message}`);
      continue;
    }
    warnings.push(...parsed.warnings.map((w) => `skill: ${w}`));
    const own = parsed.skill.name.startsWith(`${parent.name}.`)
      ? parsed.skill.name.slice(parent.name.length + 1)
      : parsed.skill.name;
    into.push({ ...parsed.skill, name: `${parent.name}.${own}`, subSkills: false });
  }
}

/** `below`: skills that rank under every folder (enabled plugins' skills, then built-in ones). */
export async function loadSkillCatalog(roots: SkillRoot[], below: readonly Skill[] = []): Promise<SkillCatalog> {
  const warnings: string[] = [];
  const skills: Skill[] = [];
  for (const root of roots) skills.push(...(await readSkillRoot(root, warnings)));
  return new SkillCatalog([...skills, ...below], warnings);
}
