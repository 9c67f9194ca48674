// The machinery every TOML file of ours is checked with (config.toml, tui.toml; docs/configuration.md): leaf
// schemas that carry the phrase a user should read when a value is wrong ("an integer ≥ 1"), and the parser and
// validator that turn a bad file into one ConfigError naming the file, the key and what was expected. zod's own
// wording never reaches the user.
import { parse as parseTomlDocument, TomlError } from 'smol-toml';
import { z } from 'zod';
import { displayPath } from './paths';

// ---- building blocks: each carries the "expected …" phrase used in error messages ----

export const str = () => z.string({ error: 'a string' });
export const nonEmpty = () =>
  z.string({ error: 'a non-empty string' }).check(z.minLength(1, { error: 'a non-empty string' }));
export const bool = () => z.boolean({ error: 'true or false' });
export const stringList = () => z.array(str(), { error: 'an array of strings' });
export const stringTable = () => z.record(z.string(), str(), { error: 'a table of string values' });

export function int(min?: number, max?: number) {
  const expected =
    min !== undefined && max !== undefined
      ? `an integer from ${min} to ${max}`
      : min !== undefined
        ? `an integer ≥ ${min}`
        : max !== undefined
          ? `an integer ≤ ${max}`
          : 'an integer';
  // One check() with every bound: each chained .int()/.min()/.max() builds a whole new schema, and config.toml's
  // ~35 integers are built on every start (docs/FEATURES.md, "Start-up time against Codex"). Same checks, same JSON
  // Schema (test/store/configFields.test.ts).
  return z
    .number({ error: expected })
    .check(
      z.int({ error: expected }),
      ...(min !== undefined ? [z.gte(min, { error: expected })] : []),
      ...(max !== undefined ? [z.lte(max, { error: expected })] : []),
    );
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `one of ${values.map((v) => JSON.stringify(v)).join(', ')}` });
}

export function table<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject(shape, { error: 'a table' });
}

export function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

// ---- errors ----

export interface ConfigErrorInit {
  file: string;
  /** Dotted key path, e.g. `models.fast.max_context_size`; empty for whole-file problems. */
  key: string;
  expected: string;
  message: string;
  line?: number;
  column?: number;
}

/** A config file that cannot be used. The message names the file, the key and what was expected. */
export class ConfigError extends Error {
  readonly file: string;
  readonly key: string;
  readonly expected: string;
  readonly line?: number;
  readonly column?: number;
  constructor(init: ConfigErrorInit) {
    super(init.message);
    this.name = 'ConfigError';
    this.file = init.file;
    this.key = init.key;
    this.expected = init.expected;
    this.line = init.line;
    this.column = init.column;
  }
}

type Path = readonly PropertyKey[];

/** `models."kimi.k2".max_context_size`, `hooks[1].timeout`. */
export function formatKey(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const name = String(part);
      const bare = /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
      out += out ? `.${bare}` : bare;
    }
  }
  return out;
}

/** How a TOML value reads in a message: `"big"`, `12`, `an array`, `a table`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  return 'a table';
}

/** Builds the standard `file: key: expected X, got Y` error. */
export function valueError(file: string, path: Path, expected: string, got: unknown): ConfigError {
  const key = formatKey(path);
  const problem =
    got === undefined
      ? `missing required key (expected ${expected})`
      : `expected ${expected}, got ${describeValue(got)}`;
  return new ConfigError({ file, key, expected, message: `${displayPath(file)}: ${key}: ${problem}` });
}

/** Parses TOML text; a syntax error becomes a ConfigError with line and column. */
export function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parseTomlDocument(text) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = err.message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
    throw new ConfigError({
      file,
      key: '',
      expected: 'valid TOML',
      line: err.line,
      column: err.column,
      message: `${displayPath(file)}: TOML syntax error at line ${err.line}, column ${err.column}: ${reason}`,
    });
  }
}

function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

// Just enough of zod's internal definition to walk a schema down a key path.
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
}

/** The keys a table at `path` accepts, or undefined when the schema there is not a fixed table. */
function knownKeysAt(schema: z.ZodType, path: Path): string[] | undefined {
  let node: z.ZodType | undefined = schema;
  let i = 0;
  while (node) {
    const def = node._zod.def as unknown as SchemaDef;
    if (def.innerType) node = def.innerType;
    else if (def.in) node = def.in;
    else if (i === path.length) return def.shape ? Object.keys(def.shape) : undefined;
    else if (def.shape) node = def.shape[String(path[i++])];
    else if (def.valueType ?? def.element) {
      node = def.valueType ?? def.element;
      i++;
    } else return undefined;
  }
  return undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/** The known key a misspelling most likely meant, when one is close enough to suggest. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** `[models.fast]`, `a [[hooks]] entry`, `the top level`. */
function tableLabel(path: Path): string {
  if (path.length === 0) return 'the top level';
  if (typeof path[path.length - 1] === 'number') return `a [[${formatKey(path.slice(0, -1))}]] entry`;
  return `[${formatKey(path)}]`;
}

function unknownKeyError(file: string, schema: z.ZodType, path: Path, key: string): ConfigError {
  const known = knownKeysAt(schema, path) ?? [];
  const fullKey = formatKey([...path, key]);
  const suggestion = closestKey(key, known);
  const hint = suggestion ? ` — did you mean "${suggestion}"?` : '';
  const expected = `one of the keys allowed in ${tableLabel(path)}: ${known.join(', ')}`;
  return new ConfigError({
    file,
    key: fullKey,
    expected,
    message: `${displayPath(file)}: ${fullKey}: unknown key${hint} (${tableLabel(path)} accepts: ${known.join(', ')})`,
  });
}

/**
 * Validates parsed TOML against a schema. The first problem becomes a ConfigError in our words:
 * the schema's leaves carry the expected phrase, unknown keys get a suggestion.
 */
export function validateAgainst<S extends z.ZodType>(schema: S, raw: unknown, file: string): z.output<S> {
  // jitless: a file is checked once per start, and zod's compiled fast path for a schema this size costs more to
  // generate than it saves on one parse (docs/FEATURES.md, "Start-up time against Codex").
  const result = schema.safeParse(raw, { jitless: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue.code === 'unrecognized_keys') throw unknownKeyError(file, schema, issue.path, issue.keys[0]);
  throw valueError(file, issue.path, issue.message, valueAt(raw, issue.path));
}
