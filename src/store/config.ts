// Loading config.toml: TOML → deprecated keys turned into warnings → strict schema → the checks that
// span tables (a model's provider exists, default_model names an alias…). The file is only ever read
// here; the one write is the commented template created when there is no file yet.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, describeValue, formatKey, parseToml, validateAgainst, valueError } from './configFields';
import {
  KNOWN_SERVICES,
  OVERRIDE_FORBIDDEN_KEYS,
  configSchema,
  defaultConfig,
  type JarvisConfig,
} from './configSchema';
import { configPath, displayPath } from './paths';
import { mkdirPrivateSync } from './privateFiles';
import { unknownRuleToolWarnings } from './ruleToolNames';

export { ConfigError } from './configFields';
export type { JarvisConfig } from './configSchema';

export interface LoadedConfig {
  /** Validated, with defaults applied. */
  config: JarvisConfig;
  path: string;
  /** False when the file did not exist (a template was created and defaults returned). */
  existed: boolean;
  /** Deprecated or ignored keys: shown once at startup, never fatal. */
  warnings: string[];
  /** Where each `[[permission.rules]]` entry was written (`~/.jarvis-code/config.toml:12`), in order. */
  ruleSources: string[];
}

export interface ParsedConfig {
  config: JarvisConfig;
  warnings: string[];
}

export const CONFIG_TEMPLATE = `# Jarvis Code configuration. Nothing is set yet: uncomment and edit what you need.
# Keys you set are validated strictly; run \`jarvis doctor\` to check this file.
#
# default_model = "my-model"          # an alias from [models] below
# default_permission_mode = "manual"  # manual | yolo | auto
#
# [providers.my-provider]
# type = "openai"                     # kimi | anthropic | openai | openai_responses
# api_key = "sk-..."
# base_url = "https://api.openai.com/v1"
#
# [models.my-model]
# provider = "my-provider"
# model = "gpt-4.1"
# max_context_size = 1047576
#
# [[permission.rules]]
# decision = "allow"                  # allow | deny | ask
# pattern = "Bash(npm test*)"
#
# [[hooks]]
# event = "PreToolUse"
# matcher = "Bash"
# command = "./scripts/check.sh"
# timeout = 30
`;

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function fail(file: string, path: readonly PropertyKey[], expected: string, problem: string): never {
  const key = formatKey(path);
  throw new ConfigError({ file, key, expected, message: `${displayPath(file)}: ${key}: ${problem}` });
}

function list(names: string[]): string {
  return names.map((n) => JSON.stringify(n)).join(', ');
}

/**
 * Deprecated spellings are accepted with a warning (and mapped where the old meaning is clear);
 * keys the schema would otherwise reject with a generic "unknown key" get a specific message here.
 */
function preprocess(raw: Table, file: string, warnings: string[]): void {
  const where = displayPath(file);
  const thinking = isTable(raw.thinking) ? raw.thinking : undefined;

  if ('default_thinking' in raw) {
    const value = raw.default_thinking;
    if (typeof value !== 'boolean') throw valueError(file, ['default_thinking'], 'true or false', value);
    warnings.push(`${where}: default_thinking is deprecated; use [thinking] enabled = ${value}`);
    if (thinking) thinking.enabled ??= value;
    else raw.thinking = { enabled: value };
    delete raw.default_thinking;
  }

  if (thinking && 'mode' in thinking) {
    const mode = thinking.mode;
    if (mode !== 'auto' && mode !== 'on' && mode !== 'off') {
      throw valueError(file, ['thinking', 'mode'], 'one of "auto", "on", "off"', mode);
    }
    warnings.push(`${where}: thinking.mode is deprecated; use thinking.enabled = true/false`);
    if (mode !== 'auto') thinking.enabled ??= mode === 'on';
    delete thinking.mode;
  }

  if (isTable(raw.loop_control)) {
    const renamed: Record<string, string> = {
      max_retries_per_step: 'max_attempts_per_step',
      max_steps_per_run: 'max_steps_per_turn',
    };
    for (const [old, replacement] of Object.entries(renamed)) {
      if (!(old in raw.loop_control)) continue;
      warnings.push(`${where}: loop_control.${old} is deprecated and ignored; use loop_control.${replacement}`);
      delete raw.loop_control[old];
    }
  }

  if (isTable(raw.models)) {
    for (const [alias, model] of Object.entries(raw.models)) {
      if (!isTable(model) || !isTable(model.overrides)) continue;
      for (const key of OVERRIDE_FORBIDDEN_KEYS) {
        if (!(key in model.overrides)) continue;
        fail(
          file,
          ['models', alias, 'overrides', key],
          'only tunable fields in overrides',
          `"${key}" cannot be overridden — identity/routing fields (${OVERRIDE_FORBIDDEN_KEYS.join(', ')}) ` +
            `belong in [${formatKey(['models', alias])}] itself`,
        );
      }
    }
  }

  if (isTable(raw.services)) {
    for (const name of Object.keys(raw.services)) {
      if ((KNOWN_SERVICES as readonly string[]).includes(name)) continue;
      warnings.push(
        `${where}: services.${name} is not a known service and is ignored (known: ${KNOWN_SERVICES.join(', ')})`,
      );
      delete raw.services[name];
    }
  }
}

/** Checks that need more than one table at a time. */
function crossCheck(config: JarvisConfig, file: string, warnings: string[]): void {
  const providers = Object.keys(config.providers);
  const aliases = Object.keys(config.models);

  for (const [alias, model] of Object.entries(config.models)) {
    if (!config.providers[model.provider]) {
      fail(
        file,
        ['models', alias, 'provider'],
        'the name of a [providers.<name>] table',
        providers.length
          ? `no provider named "${model.provider}"; defined providers: ${list(providers)}`
          : `no provider named "${model.provider}"; no providers are defined — add a [providers.${model.provider}] table`,
      );
    }
    if (model.base_url !== undefined && model.protocol === undefined) {
      fail(
        file,
        ['models', alias, 'protocol'],
        'a protocol',
        'a per-model base_url needs protocol (kimi, anthropic, openai, openai_responses…)',
      );
    }
  }

  if (config.default_model !== undefined && !config.models[config.default_model]) {
    fail(
      file,
      ['default_model'],
      'an alias defined in [models]',
      aliases.length
        ? `no model alias "${config.default_model}"; defined aliases: ${list(aliases)}`
        : `no model alias "${config.default_model}"; no [models.<alias>] tables are defined`,
    );
  }

  for (const [name, alias] of Object.entries(config.model_aliases)) {
    if (!config.models[alias]) {
      fail(
        file,
        ['model_aliases', name],
        'an alias defined in [models]',
        aliases.length
          ? `no model alias "${alias}"; defined aliases: ${list(aliases)}`
          : `no model alias "${alias}"; no [models.<alias>] tables are defined`,
      );
    }
  }

  const secondary = config.secondary_model;
  if (secondary) {
    const pool = secondary.models ? Object.keys(secondary.models) : undefined;
    const isModel = (alias: string) => alias === 'primary' || config.models[alias] !== undefined;
    if (secondary.force && pool) {
      fail(
        file,
        ['secondary_model', 'force'],
        'force without a models pool',
        'force = true cannot be combined with a [secondary_model.models] pool',
      );
    }
    if (secondary.force && secondary.default_model === undefined) {
      fail(file, ['secondary_model', 'default_model'], 'a model alias', 'force = true requires default_model');
    }
    if (pool && secondary.default_model === undefined) {
      fail(
        file,
        ['secondary_model', 'default_model'],
        'a key of secondary_model.models',
        'required when secondary_model.models is set',
      );
    }
    for (const alias of pool ?? []) {
      if (!isModel(alias)) {
        fail(
          file,
          ['secondary_model', 'models', alias],
          'an alias defined in [models] or "primary"',
          `no model alias "${alias}"; defined aliases: ${list(aliases)}`,
        );
      }
    }
    const chosen = secondary.default_model;
    if (chosen !== undefined && (!isModel(chosen) || (pool && !pool.includes(chosen)))) {
      fail(
        file,
        ['secondary_model', 'default_model'],
        pool ? 'a key of secondary_model.models' : 'an alias defined in [models] or "primary"',
        `"${chosen}" is not one of: ${list(pool ?? ['primary', ...aliases])}`,
      );
    }
  }

  for (const side of ['enabled', 'disabled', 'deferred', 'pinned'] as const) {
    for (const entry of config.tools[side]) {
      if (entry.includes('*') && !entry.startsWith('mcp__')) {
        warnings.push(
          `${displayPath(file)}: tools.${side} entry ${describeValue(entry)} never matches a built-in tool (wildcards work only for mcp__ names)`,
        );
      } else if (/^mcp__[^_]+(__)?$/.test(entry)) {
        warnings.push(
          `${displayPath(file)}: tools.${side} entry ${describeValue(entry)} has no tool segment; write mcp__<server>__<tool> or mcp__<server>__*`,
        );
      }
    }
  }
}

/** Validates config.toml text. Throws ConfigError; never touches the filesystem. */
export function parseConfigText(text: string, file: string): ParsedConfig {
  const raw = parseToml(text, file);
  const warnings: string[] = [];
  preprocess(raw, file, warnings);
  const config = validateAgainst(configSchema, raw, file);
  crossCheck(config, file, warnings);
  const rules = config.permission.rules;
  warnings.push(...unknownRuleToolWarnings(rules, permissionRuleSources(text, file, rules.length)));
  return { config, warnings };
}

/** Reads and validates a config file that must exist (doctor, explicit paths). */
export function readConfigFile(file: string): ParsedConfig {
  return parseConfigText(readFileSync(file, 'utf8'), file);
}

/**
 * Loads `$JARVIS_CODE_HOME/config.toml` (or `opts.path`). A missing default file is created from the
 * commented template and defaults are returned; an explicit path that does not exist is an error.
 * An existing file is never modified, whatever is wrong with it.
 */
export function loadConfig(home: string, opts: { path?: string } = {}): LoadedConfig {
  const path = opts.path ?? configPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (opts.path !== undefined) {
      throw new ConfigError({
        file: path,
        key: '',
        expected: 'an existing file',
        message: `${displayPath(path)}: no such file`,
      });
    }
    const problem = createTemplate(path);
    const warnings = problem
      ? [`${displayPath(path)}: could not create the config template (${problem}); using defaults`]
      : [];
    return { config: defaultConfig(), path, existed: false, warnings, ruleSources: [] };
  }
  const { config, warnings } = parseConfigText(text, path);
  return {
    config,
    path,
    existed: true,
    warnings,
    ruleSources: permissionRuleSources(text, path, config.permission.rules.length),
  };
}

/**
 * The file and line of each permission rule, so a decision can say which rule made it. TOML keeps no
 * positions, so this finds the `[[permission.rules]]` headers (outside multi-line strings); rules
 * written another way (an inline array) are named by file only.
 */
export function permissionRuleSources(text: string, path: string, count: number): string[] {
  const lines: number[] = [];
  let inMultiline: string | undefined;
  text.split('\n').forEach((line, i) => {
    for (const quote of line.match(/"""|'''/g) ?? []) {
      if (inMultiline === undefined) inMultiline = quote;
      else if (inMultiline === quote) inMultiline = undefined;
    }
    if (inMultiline === undefined && /^\s*\[\[\s*permission\s*\.\s*rules\s*\]\]/.test(line)) lines.push(i + 1);
  });
  const file = displayPath(path);
  return Array.from({ length: count }, (_, i) => (lines.length === count ? `${file}:${lines[i]}` : file));
}

/**
 * Returns why the template could not be written, if it could not. A read-only home must not stop a
 * run that gets its model from JARVIS_MODEL_*, so this is a warning, not an error.
 */
function createTemplate(path: string): string | undefined {
  try {
    mkdirPrivateSync(dirname(path));
    // `wx`: if another process created the file meanwhile, keep theirs. 0600: it will hold API keys.
    writeFileSync(path, CONFIG_TEMPLATE, { flag: 'wx', mode: 0o600 });
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EEXIST' ? undefined : (code ?? String(err));
  }
}
