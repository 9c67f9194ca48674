// One skill file (SPEC §9.1): a folder `<name>/SKILL.md` (with supporting files beside it) or a flat
// `<name>.md`. Folder skills must name and describe themselves in the frontmatter; a flat file falls
// back to its file name and its first non-empty body line. Unknown frontmatter fields are ignored, so
// skills written for other agents load unchanged.
import { basename, dirname } from 'node:path';
import { canonicalToolName, isKnownToolName } from '../../types/toolNames';
import { FieldReader, firstNonEmptyLine, readMarkdownFile } from '../frontmatter';
import { parseSkillFlow, type FlowParse } from './skillFlow';

export const SKILL_TYPES = ['prompt', 'inline', 'flow'] as const;
export type SkillType = (typeof SKILL_TYPES)[number];
export type SkillSource = 'project' | 'user' | 'extra' | 'builtin' | 'plugin';
export const DESCRIPTION_FALLBACK_MAX = 240;

export interface Skill {
  name: string;
  description: string;
  /** `prompt` and `inline` may be used by the model; `flow` only by the user. */
  type: SkillType;
  whenToUse?: string;
  disableModelInvocation: boolean;
  /** Declared argument names: `$<name>` is the argument at the same position. */
  arguments: string[];
  /**
   * `allowed-tools` as written, names mapped to Jarvis's (docs/skills-and-agents.md): checked and shown,
   * not yet a grant — calls still go through the ordinary approvals.
   */
  allowedTools?: string[];
  /** The parent opts in to sub-skills: its folders with a SKILL.md load as `<parent>.<child>`. */
  subSkills?: boolean;
  body: string;
  /** The skill's folder (`${JARVIS_SKILL_DIR}`): the SKILL.md folder, or the folder of a flat file. */
  dir: string;
  path: string;
  source: SkillSource;
  /** A flow skill's flowchart (`/flow:<name>` runs it; skillFlow.ts), or why it cannot run. */
  flow?: FlowParse;
  /** A plugin's skill: the plugin id and its `skillInstructions`, shown whenever the skill loads. */
  plugin?: { id: string; instructions?: string; root?: string };
}

export function isModelInvocable(skill: Skill): boolean {
  return skill.type !== 'flow' && !skill.disableModelInvocation;
}

export type SkillParse = { ok: true; skill: Skill; warnings: string[] } | { ok: false; message: string };

function firstLine(body: string): string {
  const plain = firstNonEmptyLine(body).replace(/^#+\s*/, '');
  return plain.length > DESCRIPTION_FALLBACK_MAX ? plain.slice(0, DESCRIPTION_FALLBACK_MAX) : plain;
}

/** Parses one skill file; `form` says whether it is a folder's SKILL.md or a flat Markdown file. */
export async function parseSkillFile(path: string, form: 'dir' | 'flat', source: SkillSource): Promise<SkillParse> {
  const parsed = await readMarkdownFile(path);
  if (!parsed.ok) return parsed;
  const f = new FieldReader(path, parsed);
  const { body } = parsed;
  let name = f.text('name');
  let description = f.text('description');
  if (form === 'dir') {
    const missing = [!name && 'name', !description && 'description'].filter(Boolean) as string[];
    if (missing.length) {
      const why = missing.map((m) => f.whyMissing(m)).filter(Boolean);
      return {
        ok: false,
        message:
          `${path}: a SKILL.md needs ${missing.join(' and ')} in its frontmatter` +
          (why.length ? ` (${why.join('; ')})` : ''),
      };
    }
  } else {
    name ??= basename(path).replace(/\.md$/i, '');
    description ??= firstLine(body);
  }
  const type = f.text('type')?.toLowerCase() ?? 'prompt';
  if (!(SKILL_TYPES as readonly string[]).includes(type)) {
    return { ok: false, message: `${path}: unknown skill type "${type}" (expected prompt, inline or flow)` };
  }
  const args = f.list(/\s+/, 'arguments');
  // Commas or spaces separate names, except inside a rule's parentheses (`Bash(git diff:*)`).
  const allowed = f.list(/(?:,|\s)+(?![^(]*\))/, 'allowed-tools', 'allowedTools', 'allowed_tools');
  const unknown = (allowed ?? []).filter((n) => !isKnownToolName(n.replace(/\(.*$/s, '')));
  if (unknown.length) f.note('allowed-tools', `field "allowed-tools" names no tool called ${unknown.join(', ')}`);
  const flow = type === 'flow' ? parseSkillFlow(body) : undefined;
  const warnings = [...f.warnings];
  if (flow && !flow.ok) warnings.push(`${path}: /flow:${name} cannot run: ${flow.message}`);
  return {
    ok: true,
    warnings,
    skill: {
      ...(flow ? { flow } : {}),
      name: name!,
      description: description ?? '',
      type: type as SkillType,
      whenToUse: f.text('whenToUse', 'when-to-use', 'when_to_use'),
      disableModelInvocation:
        f.bool('disableModelInvocation', 'disable-model-invocation', 'disable_model_invocation') ?? false,
      arguments: args ?? [],
      allowedTools: allowed?.map((n) => canonicalToolName(n.replace(/\(.*$/s, '')) + n.replace(/^[^(]*/s, '')),
      subSkills: f.bool('subSkills', 'sub-skills', 'sub_skills') ?? false,
      body: body.trim(),
      dir: dirname(path),
      path,
      source,
    },
  };
}
