// What the Skill tool needs from its session: load a skill by name for the model. The engine implements
// it (engine/delegation/skills.ts) over the skill catalog, and counts how deeply skills load each other.
import { serviceKey } from '../defineTool';

export type SkillLoad = { ok: true; name: string; text: string } | { ok: false; message: string };

export interface SkillService {
  /** The rendered skill for the model, or why it cannot be loaded (unknown, manual-only, too deep). */
  loadForModel(name: string, args: string): SkillLoad;
}

export const SKILL_SERVICE = serviceKey<SkillService>()('skills');

/** How deep a chain of skills may go (a loaded skill naming the next one, and so on); loads in sequence are free. */
export const MAX_SKILL_NESTING = 3;
