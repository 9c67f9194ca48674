// Whether a Node version meets a package's `engines.node` range (docs/lsp.md, "When a server cannot run"). Only the
// forms packages write there are read: comparators (`>=22.22.2`, `<24`, `=20.1.0`), caret and tilde (`^20.19`, `~18`),
// `x` wildcards (`20.x`), spaces meaning "and", `||` meaning "or". Anything else is unknown, never a refusal.

type Version = [number, number, number];

function parse(text: string): { version: Version; given: number } | undefined {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(?:[-+].*)?$/i.exec(text);
  if (!m) return undefined;
  const parts = [m[1], m[2], m[3]];
  let given = 0;
  const version = parts.map((p) => {
    if (p === undefined || /^[x*]$/i.test(p)) return 0;
    given += 1;
    return Number(p);
  }) as Version;
  // "20.x.5" is not a version anyone writes: a wildcard ends what is given.
  if (parts.slice(0, given).some((p) => p === undefined || /^[x*]$/i.test(p))) return undefined;
  return { version, given };
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The version one past the last one a partial version covers: `20` → 21.0.0, `20.1` → 20.2.0. */
function bumped(v: Version, given: number): Version {
  if (given <= 1) return [v[0] + 1, 0, 0];
  if (given === 2) return [v[0], v[1] + 1, 0];
  return [v[0], v[1], v[2] + 1];
}

function meets(version: Version, comparator: string): boolean | undefined {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(comparator);
  const parsed = m && parse(m[2]);
  if (!m || !parsed) return undefined;
  const { version: v, given } = parsed;
  const op = m[1] ?? '=';
  const c = compare(version, v);
  switch (op) {
    case '>=':
      return c >= 0;
    case '>':
      return given === 3 ? c > 0 : compare(version, bumped(v, given)) >= 0;
    case '<':
      return c < 0;
    case '<=':
      return given === 3 ? c <= 0 : compare(version, bumped(v, given)) < 0;
    case '=':
      return c >= 0 && compare(version, bumped(v, given)) < 0;
    case '~':
      return c >= 0 && compare(version, bumped(v, Math.min(given, 2))) < 0;
    default: {
      // ^: the same first non-zero part given.
      const upper: Version =
        v[0] > 0 || given === 1 ? [v[0] + 1, 0, 0] : v[1] > 0 || given === 2 ? [0, v[1] + 1, 0] : [0, 0, v[2] + 1];
      return c >= 0 && compare(version, upper) < 0;
    }
  }
}

/** True or false when the range is understood; undefined when it (or the version) is in a form not read here. */
export function satisfiesRange(version: string, range: string): boolean | undefined {
  const current = parse(version.trim());
  if (!current || current.given !== 3) return undefined;
  let unknown = false;
  for (const alternative of range.split('||')) {
    // A hyphen range (`18 - 22`) is not read here.
    if (/\s-\s/.test(alternative)) {
      unknown = true;
      continue;
    }
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (comparators.length === 0 || comparators.includes('*')) return true;
    const results = comparators.map((c) => meets(current.version, c));
    if (results.every((r) => r === true)) return true;
    if (results.some((r) => r === undefined) && !results.some((r) => r === false)) unknown = true;
  }
  return unknown ? undefined : false;
}
