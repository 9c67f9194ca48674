import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/requireAll';
import { CONFIG_TEMPLATE, ConfigError, loadConfig, parseConfigText, readConfigFile } from '../../src/store/config';
import { closestKey } from '../../src/store/configFields';
import { defaultConfig } from '../../src/store/configSchema';

const FIXTURES = join(__dirname, '../fixtures/config');

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

const parse = (text: string) => parseConfigText(text, '/cfg/config.toml');
const parseError = (text: string) => configError(() => parse(text));

const PROVIDER = '[providers.p]\ntype = "openai"\napi_key = "k"\n';
const MODEL = '[models.fast]\nprovider = "p"\nmodel = "gpt-4.1"\nmax_context_size = 1000\n';

describe('invalid config examples (test/fixtures/config/invalid)', () => {
  it.each([
    ['syntax.toml', '', 'TOML syntax error at line 2, column 13'],
    ['unknown-key.toml', 'loop_control.max_step_per_turn', 'unknown key — did you mean "max_steps_per_turn"?'],
    ['wrong-type.toml', 'models.fast.max_context_size', 'expected an integer ≥ 1, got "big"'],
    ['missing-provider.toml', 'models.x.provider', 'no provider named "nope"; defined providers: "openai", "claude"'],
    ['default-model-nowhere.toml', 'default_model', 'no model alias "smart"; defined aliases: "fast", "slow"'],
    ['bad-enum.toml', 'default_permission_mode', 'expected one of "manual", "yolo", "auto", got "always"'],
    [
      'hook-fifth-key.toml',
      'hooks[0].async',
      'unknown key (a [[hooks]] entry accepts: event, matcher, command, timeout)',
    ],
    ['hook-timeout.toml', 'hooks[0].timeout', 'expected an integer from 1 to 600, got 601'],
    ['rule-decision.toml', 'permission.rules[0].decision', 'expected one of "allow", "deny", "ask", got "maybe"'],
    [
      'overrides-provider.toml',
      'models.fast.overrides.provider',
      '"provider" cannot be overridden — identity/routing fields',
    ],
  ])('%s → %s', (file, key, message) => {
    const path = join(FIXTURES, 'invalid', file);
    const err = configError(() => readConfigFile(path));
    expect(err.file).toBe(path);
    expect(err.key).toBe(key);
    expect(err.expected).not.toBe('');
    expect(err.message).toContain(`invalid/${file}: ${key ? `${key}: ` : ''}${message}`);
  });

  it('reports line and column of a TOML syntax error', () => {
    const err = configError(() => readConfigFile(join(FIXTURES, 'invalid/syntax.toml')));
    expect([err.line, err.column]).toEqual([2, 13]);
  });

  it('names the file with ~ when it is under the home directory', () => {
    const saved = process.env.HOME;
    process.env.HOME = '/home/tester';
    try {
      const err = configError(() =>
        parseConfigText(
          `${PROVIDER}[models.fast]\nprovider = "p"\nmodel = "m"\nmax_context_size = "big"\n`,
          '/home/tester/.jarvis-code/config.toml',
        ),
      );
      expect(err.message).toBe(
        '~/.jarvis-code/config.toml: models.fast.max_context_size: expected an integer ≥ 1, got "big"',
      );
    } finally {
      process.env.HOME = saved;
    }
  });
});

describe('more validation messages', () => {
  it.each([
    [
      'unknown top-level key without a close match',
      'zebra = 1',
      'zebra',
      'unknown key (the top level accepts: default_model,',
    ],
    [
      'unknown top-level key close to a known one',
      'telemetri = false',
      'telemetri',
      'unknown key — did you mean "telemetry"?',
    ],
    [
      'unknown provider key',
      '[providers.p]\ntype = "openai"\napikey = "k"',
      'providers.p.apikey',
      'unknown key — did you mean "api_key"? ([providers.p] accepts: type, api_key,',
    ],
    [
      'bad provider type',
      '[providers.p]\ntype = "gemini"',
      'providers.p.type',
      'expected one of "kimi", "anthropic", "openai", "openai_responses", "google-genai", "vertexai", got "gemini"',
    ],
    [
      'missing required model key',
      `${PROVIDER}[models.fast]\nprovider = "p"\nmodel = "m"`,
      'models.fast.max_context_size',
      'missing required key (expected an integer ≥ 1)',
    ],
    [
      'bad capability',
      `${PROVIDER}${MODEL}capabilities = ["vision"]`,
      'models.fast.capabilities[0]',
      'expected one of "thinking",',
    ],
    ['table where a value belongs', 'telemetry = { on = true }', 'telemetry', 'expected true or false, got a table'],
    ['value where a table belongs', 'loop_control = 5', 'loop_control', 'expected a table, got 5'],
    [
      'float for an integer',
      '[loop_control]\nmax_attempts_per_step = 2.5',
      'loop_control.max_attempts_per_step',
      'expected an integer ≥ 1, got 2.5',
    ],
    [
      'ratio out of range',
      '[loop_control]\ncompaction_trigger_ratio = 1.5',
      'loop_control.compaction_trigger_ratio',
      'expected a number greater than 0 and at most 1, got 1.5',
    ],
    [
      'mcp timeout out of range',
      '[mcp]\nstartup_timeout_ms = 0',
      'mcp.startup_timeout_ms',
      'expected an integer from 1 to 2147483647, got 0',
    ],
    [
      'bad print mode',
      '[background]\nprint_background_mode = "wait"',
      'background.print_background_mode',
      'expected one of "exit", "drain", "steer"',
    ],
    [
      'bad token strategy',
      '[token_counting]\nstrategy = "guess"',
      'token_counting.strategy',
      'expected one of "measured+estimated", "measured", "estimated"',
    ],
    [
      'bad rule scope',
      '[[permission.rules]]\ndecision = "allow"\npattern = "Read"\nscope = "global"',
      'permission.rules[0].scope',
      'expected one of "turn-override", "session-runtime", "project", "user"',
    ],
    [
      'bad rule pattern',
      '[[permission.rules]]\ndecision = "allow"\npattern = "Read foo"',
      'permission.rules[0].pattern',
      'expected a tool pattern',
    ],
    [
      'AgentSwarm rule with an argument',
      '[[permission.rules]]\ndecision = "allow"\npattern = "AgentSwarm(swarm)"',
      'permission.rules[0].pattern',
      'expected "AgentSwarm" alone: rules match AgentSwarm by name only',
    ],
    [
      'unknown hook event',
      '[[hooks]]\nevent = "BeforeTool"\ncommand = "x"',
      'hooks[0].event',
      'expected one of "UserPromptSubmit",',
    ],
    [
      'hook without command',
      '[[hooks]]\nevent = "Stop"',
      'hooks[0].command',
      'missing required key (expected a non-empty string)',
    ],
    [
      'hook timeout zero',
      '[[hooks]]\nevent = "Stop"\ncommand = "x"\ntimeout = 0',
      'hooks[0].timeout',
      'expected an integer from 1 to 600, got 0',
    ],
    [
      'hook matcher not a regex',
      '[[hooks]]\nevent = "Stop"\ncommand = "x"\nmatcher = "("',
      'hooks[0].matcher',
      'expected a valid regular expression, got "("',
    ],
    [
      'no providers at all',
      MODEL,
      'models.fast.provider',
      'no provider named "p"; no providers are defined — add a [providers.p] table',
    ],
    [
      'no models for default_model',
      'default_model = "x"',
      'default_model',
      'no model alias "x"; no [models.<alias>] tables are defined',
    ],
    [
      'overrides with base_url',
      `${PROVIDER}${MODEL}[models.fast.overrides]\nbase_url = "http://x"`,
      'models.fast.overrides.base_url',
      '"base_url" cannot be overridden',
    ],
    [
      'per-model base_url without protocol',
      `${PROVIDER}${MODEL}base_url = "http://x"`,
      'models.fast.protocol',
      'a per-model base_url needs protocol',
    ],
    [
      'quoted alias in the key path',
      `${PROVIDER}[models."k.2"]\nprovider = "p"\nmodel = "m"\nmax_context_size = 0`,
      'models."k.2".max_context_size',
      'expected an integer ≥ 1, got 0',
    ],
    [
      'secondary force with a pool',
      `${PROVIDER}${MODEL}[secondary_model]\ndefault_model = "fast"\nforce = true\nmodels = { fast = "" }`,
      'secondary_model.force',
      'force = true cannot be combined with a [secondary_model.models] pool',
    ],
    [
      'secondary force without default',
      '[secondary_model]\nforce = true',
      'secondary_model.default_model',
      'force = true requires default_model',
    ],
    [
      'secondary pool alias unknown',
      `${PROVIDER}${MODEL}[secondary_model]\ndefault_model = "fast"\nmodels = { fast = "", nope = "" }`,
      'secondary_model.models.nope',
      'no model alias "nope"',
    ],
    [
      'deprecated key with a wrong type',
      'default_thinking = "yes"',
      'default_thinking',
      'expected true or false, got "yes"',
    ],
    [
      'deprecated thinking.mode with a bad value',
      '[thinking]\nmode = "sometimes"',
      'thinking.mode',
      'expected one of "auto", "on", "off"',
    ],
  ])('%s', (_name, text, key, message) => {
    const err = parseError(text);
    expect(err.key).toBe(key);
    expect(err.message).toContain(`/cfg/config.toml: ${key}: ${message}`);
  });

  it('suggests only close keys', () => {
    expect(closestKey('max_step_per_turn', ['max_steps_per_turn', 'reserved_context_size'])).toBe('max_steps_per_turn');
    expect(closestKey('Telemetry', ['telemetry'])).toBe('telemetry');
    expect(closestKey('zebra', ['telemetry', 'models'])).toBeUndefined();
  });
});

describe('valid config', () => {
  it('loads the full example with every table', () => {
    const { config, warnings } = readConfigFile(join(FIXTURES, 'valid-full.toml'));
    expect(warnings).toEqual([]);
    expect(config.default_model).toBe('fast');
    expect(config.default_permission_mode).toBe('auto');
    expect(Object.keys(config.models)).toEqual(['fast', 'claude.sonnet', 'routed']);
    expect(config.models.fast.overrides).toEqual({ display_name: 'Kimi (fast)', capabilities: ['video_in'] });
    expect(config.providers.claude.env).toEqual({
      ANTHROPIC_API_KEY: 'sk-ant',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/anthropic',
    });
    expect(config.loop_control).toEqual({
      max_steps_per_turn: 50,
      max_attempts_per_step: 4,
      reserved_context_size: 50000,
      compaction_trigger_ratio: 0.9,
      retry_budget_s: 30,
      idle_timeout_s: 120,
      wait_notice_s: 10,
    });
    expect(config.background.print_background_mode).toBe('drain');
    expect(config.permission.rules).toEqual([
      { decision: 'deny', pattern: 'Bash(rm -rf*)', scope: 'user', reason: 'never' },
      { decision: 'allow', pattern: 'mcp__github__*', scope: 'project' },
    ]);
    expect(config.hooks).toEqual([
      { event: 'PreToolUse', matcher: '^(Bash|Write)$', command: './check.sh', timeout: 10 },
      { event: 'Stop', command: 'echo done', timeout: 30 },
    ]);
    expect(config.secondary_model).toEqual({
      default_model: 'fast',
      models: { fast: 'quick lookups', primary: '' },
      force: false,
    });
    expect(config.experimental.micro_compaction).toBe(true);
    expect(config.rewind).toEqual({ snapshots: false, max_file_bytes: 2048 });
  });

  it('applies documented defaults to an empty file', () => {
    const config = parse('').config;
    expect(config).toEqual(defaultConfig());
    expect(config.default_permission_mode).toBe('manual');
    expect(config.default_plan_mode).toBe(false);
    expect(config.telemetry).toBe(true);
    expect(config.thinking).toEqual({ enabled: true, keep: 'all' });
    expect(config.loop_control).toEqual({
      max_steps_per_turn: 500,
      max_attempts_per_step: 10,
      compaction_trigger_ratio: 0.85,
      retry_budget_s: 30,
      idle_timeout_s: 120,
      wait_notice_s: 10,
    });
    expect(config.token_counting.strategy).toBe('measured+estimated');
    expect(config.background).toEqual({
      keep_alive_on_exit: false,
      kill_grace_period_ms: 5000,
      bash_auto_background_on_timeout: true,
      print_background_mode: 'steer',
      print_wait_ceiling_s: 600,
      print_max_turns: 100000,
    });
    expect(config.mcp).toEqual({ startup_timeout_ms: 30000, tool_timeout_ms: 60000 });
    expect(config.memory).toEqual({
      extraction_enabled: true,
      extraction_exit_timeout_ms: 5000,
      recall_max_records: 20,
      recall_max_bytes: 4096,
    });
    expect(config.image).toEqual({ max_edge_px: 2000, read_byte_budget: 262144 });
    expect(config.hooks).toEqual([]);
    expect(config.permission.rules).toEqual([]);
  });

  it('turns deprecated keys into warnings, not errors', () => {
    const { config, warnings } = parse(
      'default_thinking = false\n[loop_control]\nmax_retries_per_step = 3\nmax_steps_per_run = 9\n',
    );
    expect(config.thinking.enabled).toBe(false);
    expect(config.loop_control.max_attempts_per_step).toBe(10);
    expect(config.loop_control.max_steps_per_turn).toBe(500);
    expect(warnings).toEqual([
      '/cfg/config.toml: default_thinking is deprecated; use [thinking] enabled = false',
      '/cfg/config.toml: loop_control.max_retries_per_step is deprecated and ignored; use loop_control.max_attempts_per_step',
      '/cfg/config.toml: loop_control.max_steps_per_run is deprecated and ignored; use loop_control.max_steps_per_turn',
    ]);
  });

  it('maps deprecated thinking.mode on/off and lets an explicit enabled win', () => {
    expect(parse('[thinking]\nmode = "off"').config.thinking.enabled).toBe(false);
    expect(parse('[thinking]\nmode = "auto"').config.thinking.enabled).toBe(true);
    expect(parse('[thinking]\nmode = "off"\nenabled = true').config.thinking.enabled).toBe(true);
    expect(parse('[thinking]\nmode = "on"').warnings[0]).toContain('thinking.mode is deprecated');
  });

  it('ignores unknown services with a warning and warns about never-matching tool entries', () => {
    const { config, warnings } = parse(
      '[services.other]\nx = 1\n[tools]\nenabled = ["*"]\ndisabled = ["mcp__github", "mcp__github__*"]',
    );
    expect(config.services).toEqual({});
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain('services.other is not a known service and is ignored');
    expect(warnings[1]).toContain('tools.enabled entry "*" never matches a built-in tool');
    expect(warnings[2]).toContain('tools.disabled entry "mcp__github" has no tool segment');
  });
});

describe('loadConfig and the file on disk', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'jarvis-config-'));
  });
  afterEach(() => {
    chmodSync(home, 0o700);
  });

  it('creates a commented template when the file is missing and returns defaults', () => {
    const nested = join(home, 'nested', 'home');
    const loaded = loadConfig(nested);
    expect(loaded).toEqual({
      config: defaultConfig(),
      path: join(nested, 'config.toml'),
      existed: false,
      warnings: [],
      ruleSources: [],
    });
    const text = readFileSync(loaded.path, 'utf8');
    expect(text).toBe(CONFIG_TEMPLATE);
    expect(statSync(loaded.path).mode & 0o777).toBe(0o600);
    // The template sets no keys: every non-blank line is a comment, and it parses to the defaults.
    expect(text.split('\n').filter((l) => l.trim() && !l.startsWith('#'))).toEqual([]);
    expect(loadConfig(nested)).toEqual({ ...loaded, existed: true });
  });

  it('returns defaults with a warning when the template cannot be written', (ctx) => {
    // Root writes into a read-only directory anyway, so this only means something for other users.
    if (process.getuid?.() === 0) {
      skipBecause(ctx, 'running as root, which writes into a read-only folder anyway: the case cannot happen');
    }
    chmodSync(home, 0o500);
    const loaded = loadConfig(home);
    expect(loaded.existed).toBe(false);
    expect(loaded.warnings[0]).toContain('could not create the config template');
  });

  it('never rewrites an existing file, valid or not', () => {
    const path = join(home, 'config.toml');
    for (const text of ['telemetry = "no"\n', '[broken\n', `${PROVIDER}${MODEL}default_thinking = true\n`]) {
      writeFileSync(path, text);
      const before = statSync(path);
      try {
        loadConfig(home);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
      }
      const after = statSync(path);
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(after.size).toBe(before.size);
    }
  });

  it('loads an existing file and reports its warnings', () => {
    writeFileSync(
      join(home, 'config.toml'),
      `default_model = "fast"\n${PROVIDER}${MODEL}[loop_control]\nmax_steps_per_run = 3\n`,
    );
    const loaded = loadConfig(home);
    expect(loaded.existed).toBe(true);
    expect(loaded.config.default_model).toBe('fast');
    expect(loaded.warnings).toHaveLength(1);
  });

  it('requires an explicitly named file to exist and does not create it', () => {
    const path = join(home, 'elsewhere.toml');
    const err = configError(() => loadConfig(home, { path }));
    expect(err.message).toContain('elsewhere.toml: no such file');
    expect(() => statSync(path)).toThrow();
    mkdirSync(join(home, 'd'));
    writeFileSync(join(home, 'd', 'c.toml'), 'telemetry = false');
    expect(loadConfig(home, { path: join(home, 'd', 'c.toml') }).config.telemetry).toBe(false);
  });
});
