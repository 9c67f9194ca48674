// Permission rules that name a tool nobody has (docs/approvals.md "Rules from other tools"): `Bsh(ls)` or
// `Frobnicate` in config.toml is a warning naming the file, the rule and the nearest known name. Such a rule still
// matches nothing — it neither allows nor denies — so a misspelt allow rule never widens anything, and a misspelt
// deny rule is said rather than silently protecting nothing. Names go through the alias table first, so Claude
// Code's and opencode's (`WebFetch(domain:x)`, `MultiEdit`) are known.
import {
  BUILTIN_TOOL_NAMES,
  COMPUTER_USE_SUBJECT,
  isKnownToolName,
  nonAsciiHint,
  TOOL_NAME_ALIASES,
} from '../types/toolNames';
import { closestKey } from './configFields';

const RULE = /^([^()\s]+)(?:\((.*)\))?$/s;

/** The suggestion for an unknown name: a built-in or an alias (with the Jarvis tool it stands for). */
function nearest(name: string): string | undefined {
  const known = [...BUILTIN_TOOL_NAMES, ...Object.keys(TOOL_NAME_ALIASES)];
  const best = closestKey(name, known);
  if (best === undefined) return undefined;
  const target = Object.entries(TOOL_NAME_ALIASES).find(([alias]) => alias === best)?.[1];
  return target ? `${best} (${target})` : best;
}

/**
 * One warning per rule whose tool is unknown. `sources[i]` is where rule i was written (`config.toml:12`);
 * a pattern that does not parse is the schema's error, not this function's.
 */
export function unknownRuleToolWarnings(
  rules: ReadonlyArray<{ decision: string; pattern: string }>,
  sources: readonly string[],
): string[] {
  const out: string[] = [];
  rules.forEach((rule, i) => {
    const tool = RULE.exec(rule.pattern.trim())?.[1];
    if (tool === undefined || isKnownToolName(tool, [COMPUTER_USE_SUBJECT])) return;
    const suggestion = nearest(tool);
    out.push(
      `${sources[i]}: permission rule ${rule.decision} "${rule.pattern}" names no tool called "${tool}"` +
        nonAsciiHint(tool) +
        (suggestion ? ` (nearest known name: ${suggestion})` : ' (no known tool name is close)') +
        `; the rule matches nothing until it is fixed`,
    );
  });
  return out;
}
