// Fills a skill body's placeholders (SPEC §9.1): `$ARGUMENTS` (the whole text), `$ARGUMENTS[i]` and `$i`
// (the i-th word, 0-based; quotes group words), `$<name>` for declared argument names, and
// `${JARVIS_SKILL_DIR}` (also written `${CLAUDE_SKILL_DIR}`, and a plugin skill's `${CLAUDE_PLUGIN_ROOT}`,
// as Claude Code skills do: docs/plugins.md "Claude Code plugins"). A body without argument placeholders
// gets the text appended instead.
import type { Skill } from './skillFile';

/** Splits on whitespace; "double" or 'single' quotes keep words together and are removed. */
export function tokenizeArguments(text: string): string[] {
  const tokens: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of text.matchAll(re)) tokens.push(m[1] ?? m[2] ?? m[3]);
  return tokens;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function renderSkillBody(
  skill: Pick<Skill, 'body' | 'arguments' | 'dir'> & Partial<Pick<Skill, 'plugin'>>,
  argsText: string,
): string {
  const args = argsText.trim();
  const tokens = tokenizeArguments(args);
  const names = skill.arguments.filter((n) => /^[A-Za-z_][\w-]*$/.test(n) && n !== 'ARGUMENTS');
  // Longest names first so `$file_name` is not read as `$file` + `_name`.
  const named = names.length
    ? `|\\$(${[...names]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|')})(?![\\w-])`
    : '';
  const pattern = new RegExp(`\\$ARGUMENTS\\[(\\d+)\\]|\\$ARGUMENTS(?![\\w\\[])|\\$(\\d+)(?!\\d)${named}`, 'g');
  let used = false;
  const filled = skill.body.replace(
    pattern,
    (_whole, indexed: string | undefined, positional: string | undefined, maybeName: unknown) => {
      used = true;
      // Without declared names the pattern has no third group and this argument is the match offset.
      const name = named && typeof maybeName === 'string' ? maybeName : undefined;
      if (indexed !== undefined) return tokens[Number(indexed)] ?? '';
      if (positional !== undefined) return tokens[Number(positional)] ?? '';
      if (name !== undefined) return tokens[skill.arguments.indexOf(name)] ?? '';
      return args;
    },
  );
  let withDir = filled.split('${JARVIS_SKILL_DIR}').join(skill.dir).split('${CLAUDE_SKILL_DIR}').join(skill.dir);
  if (skill.plugin?.root) withDir = withDir.split('${CLAUDE_PLUGIN_ROOT}').join(skill.plugin.root);
  return !used && args ? `${withDir}\n\nARGUMENTS: ${args}` : withDir;
}
