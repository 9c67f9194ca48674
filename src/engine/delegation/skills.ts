// Skills inside a session: the user's `/skill:<name> [args]` (and the `/<name>` shorthand) become the
// skill's instructions as the prompt; the model loads skills with the Skill tool through this service,
// which refuses manual-only skills and counts nesting: the chain of skills whose instructions led to one
// another (SkillInvoker below); a turn started with `/skill:` holds its skills at depth 1.
import { renderSkillBody } from '../../ext/skills/skillArguments';
import type { SkillCatalog } from '../../ext/skills/skillCatalog';
import { isModelInvocable, type Skill } from '../../ext/skills/skillFile';
import { MAX_SKILL_NESTING, type SkillLoad, type SkillService } from '../../tools/skill/skillService';
import { fitListing, type ListingFormat } from '../../tools/listingBudget';
import type { GateHandler } from '../extensions/extensionGate';
import { preApprovalRules } from '../policy/preApproval';
import type { Agent, TurnExtension } from '../loop/loop';

const SKILL_OPEN = '<skill name=';

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The text a skill contributes to the conversation, for the user's command, the model's Skill call or a
 * plugin's session start; a plugin skill carries its plugin's `skillInstructions` (docs/plugins.md).
 */
export function skillText(skill: Skill, args: string): string {
  const extra = skill.plugin?.instructions
    ? `\n\n<plugin-instructions plugin="${escapeAttribute(skill.plugin.id)}">\n${skill.plugin.instructions}\n</plugin-instructions>`
    : '';
  return `${SKILL_OPEN}"${escapeAttribute(skill.name)}" path="${escapeAttribute(skill.path)}">\n${renderSkillBody(skill, args)}${extra}\n</skill>`;
}

/**
 * Plugins' `sessionStart.skill`: the skills' text joins the first prompt of a new or resumed session as
 * added context (text only; nothing runs).
 */
export function sessionStartSkills(skills: readonly Skill[]): GateHandler {
  let pending = false;
  return {
    name: 'plugin session-start skills',
    onSessionStart() {
      pending = true;
    },
    onPromptSubmit(prompt) {
      if (!pending || prompt.isSteer) return undefined;
      pending = false;
      return { addContext: skills.map((s) => skillText(s, '')).join('\n\n') };
    },
  };
}

export type SkillCommand = { ok: true; skill: Skill; args: string; text: string } | { ok: false; message: string };

/**
 * `/skill:<name> [args]`, or `/<name> [args]` when `<name>` is no front-end command. Returns undefined
 * when the text is not a skill command at all (plain text, or a command the front end handles).
 */
export function parseSkillCommand(
  input: string,
  catalog: SkillCatalog | undefined,
  isFrontEndCommand: (name: string) => boolean,
): SkillCommand | undefined {
  const many = severalSkillLines(input, catalog);
  if (many) return many;
  const m = /^\/(skill:)?([^\s/]+)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (!m) return undefined;
  const [, explicit, name, rest] = m;
  const args = (rest ?? '').trim();
  if (!explicit && (isFrontEndCommand(name) || !catalog?.get(name))) return undefined;
  const skill = catalog?.get(name);
  if (!skill) {
    const known = catalog?.all.map((s) => s.name) ?? [];
    return {
      ok: false,
      message: `There is no skill "${name}". ${known.length ? `Available skills: ${known.join(', ')}.` : 'No skills are installed (see docs/skills-and-agents.md).'}`,
    };
  }
  return { ok: true, skill, args, text: skillText(skill, args) };
}

const SKILL_LINE = /^\/skill:(\S+)(?:[ \t]+(.*))?$/;

/**
 * A prompt with two or more lines that start with `/skill:`: each such line loads its skill, with the
 * rest of that line as its arguments; the other lines follow as the user's text (docs/skills-and-agents.md).
 */
function severalSkillLines(input: string, catalog: SkillCatalog | undefined): SkillCommand | undefined {
  const lines = input.trim().split(/\r?\n/);
  if (lines.filter((l) => SKILL_LINE.test(l.trim())).length < 2) return undefined;
  const parts: string[] = [];
  const text: string[] = [];
  let first: Skill | undefined;
  for (const line of lines) {
    const m = SKILL_LINE.exec(line.trim());
    if (!m) {
      text.push(line);
      continue;
    }
    const one = parseSkillCommand(`/skill:${m[1]}${m[2] ? ` ${m[2]}` : ''}`, catalog, () => false);
    if (!one?.ok) return one;
    first ??= one.skill;
    parts.push(one.text);
  }
  const rest = text.join('\n').trim();
  return { ok: true, skill: first!, args: '', text: [...parts, ...(rest ? [rest] : [])].join('\n\n') };
}

/** How `${skills}` lists one skill, and the skills past the listing's room (named, never left out). */
const SKILL_LISTING: ListingFormat = {
  described: (name, text) => `- ${name}: ${text}`,
  namesOnly: (names) => `- also (load one to read what it does): ${names.join(', ')}`,
  separator: '\n',
};

/**
 * A compact list for the system prompt (`${skills}`): every skill the model may load, one per line with its
 * description — the user's, the project's and the plugins' alike, in catalog order — within `budgetBytes`
 * (listingBudgetBytes of the model's context window). Past the room descriptions are shortened, then the last
 * skills are named without one; every skill is named (docs/skills-and-agents.md).
 */
export function skillsListing(catalog: SkillCatalog | undefined, budgetBytes: number): string {
  const skills = catalog?.modelInvocable ?? [];
  const entries = skills.map((s) => ({
    name: s.name,
    text: `${s.description}${s.whenToUse ? ` (use when: ${s.whenToUse})` : ''}`,
  }));
  return fitListing(entries, budgetBytes, SKILL_LISTING).parts.join(SKILL_LISTING.separator);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` names the skill `name` as a word (`superpowers:brainstorming` names `brainstorming`). */
export function mentionsSkill(text: string, name: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(name)}(?![A-Za-z0-9_-])`, 'i').test(text);
}

/**
 * Nesting is the chain of skills one skill led to, not the number of loads: a skill loaded while another
 * one's instructions name it sits one level below that one; any other load starts a chain of its own, so a
 * turn may load any number of skills one after another (docs/skills-and-agents.md, "Skills loading skills").
 */
export class SkillInvoker implements SkillService {
  /** The skills loaded this turn, with the depth each sits at (1 = not led to by another skill). */
  private loaded = new Map<string, { skill: Skill; depth: number }>();
  private firstStep = true;
  /** The agent whose turn is running (set at its first step): a loaded skill's `allowed-tools` go to it. */
  private agent: Agent | undefined;

  constructor(private readonly catalog: SkillCatalog | undefined) {}

  /** The depth `skill` would load at: one below the deepest loaded skill whose instructions name it. */
  private depthOf(skill: Skill): number {
    let parent = 0;
    for (const { skill: other, depth } of this.loaded.values())
      if (other.name !== skill.name && depth > parent && mentionsSkill(other.body, skill.name)) parent = depth;
    return parent + 1;
  }

  private chainTo(skill: Skill, depth: number): string {
    const chain = [skill.name];
    let at = depth;
    while (at > 1) {
      const step = [...this.loaded.values()].find(
        (l) => l.depth === at - 1 && mentionsSkill(l.skill.body, chain[0]) && l.skill.name !== chain[0],
      );
      if (!step) break;
      chain.unshift(step.skill.name);
      at--;
    }
    return chain.join(' → ');
  }

  loadForModel(name: string, args: string): SkillLoad {
    const skill = this.catalog?.get(name);
    if (!skill) {
      const names = this.catalog?.modelInvocable.map((s) => s.name) ?? [];
      return {
        ok: false,
        message: `There is no skill "${name}".${names.length ? ` Skills you can load: ${names.join(', ')}.` : ''}`,
      };
    }
    if (!isModelInvocable(skill)) {
      const why = skill.type === 'flow' ? 'a flow skill' : 'marked disableModelInvocation';
      return {
        ok: false,
        message: `The skill "${skill.name}" is ${why}: only the user can start it (/skill:${skill.name}). Do the task without it.`,
      };
    }
    const depth = this.depthOf(skill);
    if (depth > MAX_SKILL_NESTING) {
      return {
        ok: false,
        message:
          `Skills may lead to other skills only ${MAX_SKILL_NESTING} levels deep; "${skill.name}" would be level ` +
          `${depth} (${this.chainTo(skill, depth)}) and was not loaded. ` +
          'Continue with the instructions you already have.',
      };
    }
    if (!this.loaded.has(skill.name.toLowerCase())) this.loaded.set(skill.name.toLowerCase(), { skill, depth });
    // Its `allowed-tools` pre-approve matching calls for the rest of this turn (docs/approvals.md).
    const problems: string[] = [];
    // A repository's skill that the model chose to load is the repository's word, not the user's: it grants nothing.
    const fromRepository = skill.source === 'project' && (skill.allowedTools?.length ?? 0) > 0;
    if (fromRepository)
      problems.push(
        `${skill.path}: allowed-tools of a project skill the model loads pre-approves nothing ` +
          `(typed as /skill:${skill.name} by the user, it does)`,
      );
    const rules = fromRepository ? [] : preApprovalRules(skill.allowedTools ?? [], skill.path, (t) => problems.push(t));
    if (rules.length) this.agent?.grantForTurn(rules);
    const text = skillText(skill, args);
    return { ok: true, name: skill.name, text: problems.length ? `${text}\n\n(${problems.join('; ')})` : text };
  }

  readonly extension: TurnExtension = {
    beforeStep: (agent: Agent) => {
      if (!this.firstStep) return;
      this.firstStep = false;
      this.agent = agent;
      // A turn started with `/skill:` holds those skills at level 1.
      const last = agent.session.state.messages.at(-1);
      if (last?.role !== 'user') return;
      for (const part of last.content) {
        if (part.type !== 'text') continue;
        for (const m of part.text.matchAll(/<skill name="([^"]+)"/g)) {
          const skill = this.catalog?.get(
            m[1]
              .replace(/&quot;/g, '"')
              .replace(/&lt;/g, '<')
              .replace(/&amp;/g, '&'),
          );
          if (skill && !this.loaded.has(skill.name.toLowerCase()))
            this.loaded.set(skill.name.toLowerCase(), { skill, depth: 1 });
        }
      }
    },
    afterTurn: () => {
      this.firstStep = true;
      this.agent = undefined;
      this.loaded = new Map();
    },
  };
}
