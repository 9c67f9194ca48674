// Skill: the model loads a skill's instructions (SPEC §6.10). The engine's skill service decides what
// may load (not manual-only skills, not beyond the nesting limit) and renders the placeholders.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './skill.md';
import { MAX_SKILL_NESTING, SKILL_SERVICE } from './skillService';

export const skillTool = defineTool({
  name: 'Skill',
  services: [SKILL_SERVICE],
  description,
  constants: { MAX_NESTING: MAX_SKILL_NESTING },
  schema: z.object({
    skill: z.string().trim().min(1, 'give the skill name'),
    args: z.string().optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (a) => `Skill(${a.skill})`,
  async execute(args, ctx) {
    const loaded = ctx.services.get(SKILL_SERVICE).loadForModel(args.skill, args.args ?? '');
    if (!loaded.ok) return { content: loaded.message, isError: true };
    return { content: loaded.text, summary: `Loaded skill ${loaded.name}` };
  },
});
