// The global `[tools]` switch (docs/configuration.md): `enabled` is an allowlist (empty = no constraint),
// `disabled` a denylist applied after it. Built-in tools match by exact name; `mcp__…` entries may be
// globs. Entries that can never match what the user meant are kept (they still act) but warned about.
import picomatch from 'picomatch';

export interface ToolSwitch {
  enabled: readonly string[];
  disabled: readonly string[];
}

export interface ToolFilter {
  allows(name: string): boolean;
  warnings: string[];
}

/** How a `[tools]` list entry matches a tool name: exactly, or as a glob for `mcp__…` entries. */
export function toolNameMatcher(entry: string): (name: string) => boolean {
  if (entry.startsWith('mcp__')) return picomatch(entry);
  return (name) => name === entry;
}

export function makeToolFilter(sw: ToolSwitch, knownNames: readonly string[]): ToolFilter {
  const warnings: string[] = [];
  const known = new Set(knownNames);
  const lower = new Map(knownNames.map((n) => [n.toLowerCase(), n]));
  for (const [key, list] of [
    ['enabled', sw.enabled],
    ['disabled', sw.disabled],
  ] as const) {
    for (const entry of list) {
      if (entry.startsWith('mcp__')) {
        if (!/^mcp__[^_].*__./.test(entry))
          warnings.push(
            `[tools] ${key}: "${entry}" names no tool segment (use mcp__<server>__<tool> or mcp__<server>__*)`,
          );
      } else if (/[*?[\]{}]/.test(entry)) {
        const effect = key === 'enabled' ? 'so no built-in tool is enabled' : 'so it disables nothing';
        warnings.push(
          `[tools] ${key}: "${entry}" is a wildcard; only mcp__ entries may use wildcards (built-in tools match by exact name), ${effect}`,
        );
      } else if (!known.has(entry)) {
        const near = lower.get(entry.toLowerCase());
        warnings.push(
          `[tools] ${key}: "${entry}" is not a tool name${near ? ` (did you mean "${near}"? names are case-sensitive)` : ''}`,
        );
      }
    }
  }
  const enabled = sw.enabled.map(toolNameMatcher);
  const disabled = sw.disabled.map(toolNameMatcher);
  return {
    warnings,
    allows: (name) => (enabled.length === 0 || enabled.some((m) => m(name))) && !disabled.some((m) => m(name)),
  };
}
