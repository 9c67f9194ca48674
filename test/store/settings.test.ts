import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText, readConfigFile } from '../../src/store/config';
import { defaultConfig } from '../../src/store/configSchema';
import { effectiveSettings, identitySlug, parseBooleanWord, parseIntInRange } from '../../src/store/settings';

const FULL = readConfigFile(join(__dirname, '../fixtures/config/valid-full.toml')).config;

describe('effectiveSettings defaults', () => {
  it('interactive defaults', () => {
    const { settings, warnings } = effectiveSettings(defaultConfig(), {});
    expect(warnings).toEqual([]);
    expect(settings).toEqual({
      loop: {
        maxStepsPerTurn: 500,
        maxAttemptsPerStep: 10,
        reservedContextSize: undefined,
        compactionTriggerRatio: 0.85,
        retryBudgetMs: 30_000,
        waitNoticeMs: 10_000,
        idleTimeoutMs: 120_000,
      },
      tokenCounting: { strategy: 'measured+estimated' },
      background: {
        maxRunningTasks: undefined,
        keepAliveOnExit: false,
        killGracePeriodMs: 5000,
        bashAutoBackgroundOnTimeout: true,
        bashTaskTimeoutS: 600,
        printBackgroundMode: 'steer',
        printWaitCeilingS: 600,
        printMaxTurns: 100000,
      },
      subagent: { timeoutMs: 7200000 },
      swarm: { timeoutMs: 7200000 },
      mcp: { startupTimeoutMs: 30000, toolTimeoutMs: 60000 },
      image: { maxEdgePx: 2000, readByteBudget: 262144 },
      memory: { extractionEnabled: true, extractionExitTimeoutMs: 5000, recallMaxRecords: 20, recallMaxBytes: 4096 },
      identity: { name: 'Jarvis', slug: 'jarvis' },
      telemetry: true,
      builtinProductSkills: true,
      services: { search: undefined, fetch: undefined },
      compat: {
        claude: true,
        opencode: true,
        codex: true,
        gemini: true,
        kimi: true,
        claudeMd: true,
        nestedAgentsMd: true,
        mcpJson: true,
      },
    });
  });

  it('print mode has no default timeouts for background Bash, subagents and swarms', () => {
    const { settings } = effectiveSettings(defaultConfig(), {}, { printMode: true });
    expect(settings.background.bashTaskTimeoutS).toBe(0);
    expect(settings.subagent.timeoutMs).toBe(0);
    expect(settings.swarm.timeoutMs).toBe(0);
    // A value the user configured wins in print mode too.
    expect(effectiveSettings(FULL, {}, { printMode: true }).settings.subagent.timeoutMs).toBe(60000);
  });

  it('takes config values', () => {
    const { settings } = effectiveSettings(FULL, {});
    expect(settings.loop).toEqual({
      maxStepsPerTurn: 50,
      maxAttemptsPerStep: 4,
      reservedContextSize: 50000,
      compactionTriggerRatio: 0.9,
      retryBudgetMs: 30_000,
      waitNoticeMs: 10_000,
      idleTimeoutMs: 120_000,
    });
    expect(settings.background.maxRunningTasks).toBe(3);
    expect(settings.background.bashTaskTimeoutS).toBe(120);
    expect(settings.identity).toEqual({ name: 'Friday', slug: 'friday-bot' });
    expect(settings.telemetry).toBe(false);
    expect(settings.services).toEqual({
      search: {
        baseUrl: 'http://127.0.0.1:9/search',
        apiKey: 'search-key',
        oauth: undefined,
        customHeaders: undefined,
      },
      fetch: {
        baseUrl: 'http://127.0.0.1:9/fetch',
        apiKey: undefined,
        oauth: undefined,
        customHeaders: { 'X-Fetch': '1' },
      },
    });
  });

  it('clamps agent timeouts to 2147483647 ms', () => {
    const config = parseConfigText('[subagent]\ntimeout_ms = 9999999999', '/c.toml').config;
    expect(effectiveSettings(config, {}).settings.subagent.timeoutMs).toBe(2147483647);
  });
});

describe('env overrides beat config', () => {
  it.each([
    ['JARVIS_LOOP_MAX_STEPS_PER_TURN', '7', (s: S) => s.loop.maxStepsPerTurn, 7],
    ['JARVIS_LOOP_MAX_STEPS_PER_TURN', '0', (s: S) => s.loop.maxStepsPerTurn, 0],
    ['JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP', '2', (s: S) => s.loop.maxAttemptsPerStep, 2],
    ['JARVIS_CODE_BACKGROUND_KEEP_ALIVE_ON_EXIT', 'off', (s: S) => s.background.keepAliveOnExit, false],
    ['JARVIS_CODE_BACKGROUND_MAX_RUNNING_TASKS', '9', (s: S) => s.background.maxRunningTasks, 9],
    ['JARVIS_IMAGE_MAX_EDGE_PX', '800', (s: S) => s.image.maxEdgePx, 800],
    ['JARVIS_IMAGE_READ_BYTE_BUDGET', '1024', (s: S) => s.image.readByteBudget, 1024],
    ['JARVIS_TOKEN_COUNTING_STRATEGY', 'MEASURED', (s: S) => s.tokenCounting.strategy, 'measured'],
    ['JARVIS_SUBAGENT_TIMEOUT_MS', '1000', (s: S) => s.subagent.timeoutMs, 1000],
    ['JARVIS_CODE_SWARM_TIMEOUT_MS', '2000', (s: S) => s.swarm.timeoutMs, 2000],
    ['JARVIS_MCP_STARTUP_TIMEOUT_MS', '100', (s: S) => s.mcp.startupTimeoutMs, 100],
    ['JARVIS_MCP_TOOL_TIMEOUT_MS', '200', (s: S) => s.mcp.toolTimeoutMs, 200],
    ['JARVIS_CODE_IDENTITY_NAME', 'Ops Bot!', (s: S) => s.identity, { name: 'Ops Bot!', slug: 'friday-bot' }],
    ['JARVIS_CODE_IDENTITY_SLUG', 'My Slug', (s: S) => s.identity.slug, 'my-slug'],
    ['JARVIS_CODE_BUILTIN_PRODUCT_SKILLS', 'yes', (s: S) => s.builtinProductSkills, true],
  ])('%s=%s', (name, value, pick, expected) => {
    const { settings, warnings } = effectiveSettings(FULL, { [name]: value });
    expect(pick(settings)).toEqual(expected);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['JARVIS_LOOP_MAX_STEPS_PER_TURN', '-1', (s: S) => s.loop.maxStepsPerTurn, 50],
    ['JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP', 'many', (s: S) => s.loop.maxAttemptsPerStep, 4],
    ['JARVIS_CODE_BACKGROUND_KEEP_ALIVE_ON_EXIT', 'perhaps', (s: S) => s.background.keepAliveOnExit, true],
    ['JARVIS_CODE_BACKGROUND_MAX_RUNNING_TASKS', '0', (s: S) => s.background.maxRunningTasks, 3],
    ['JARVIS_CODE_BACKGROUND_MAX_RUNNING_TASKS', '2.5', (s: S) => s.background.maxRunningTasks, 3],
    ['JARVIS_IMAGE_MAX_EDGE_PX', '12px', (s: S) => s.image.maxEdgePx, 1500],
    ['JARVIS_TOKEN_COUNTING_STRATEGY', 'exact', (s: S) => s.tokenCounting.strategy, 'estimated'],
    ['JARVIS_MCP_TOOL_TIMEOUT_MS', '2147483648', (s: S) => s.mcp.toolTimeoutMs, 7000],
    ['JARVIS_SUBAGENT_TIMEOUT_MS', '0', (s: S) => s.subagent.timeoutMs, 60000],
  ])('invalid %s=%s is ignored with a warning', (name, value, pick, expected) => {
    const { settings, warnings } = effectiveSettings(FULL, { [name]: value });
    expect(pick(settings)).toEqual(expected);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${name}=${JSON.stringify(value)} ignored`);
  });

  it('blank env values count as unset', () => {
    const { settings, warnings } = effectiveSettings(FULL, {
      JARVIS_CODE_IDENTITY_NAME: '  ',
      JARVIS_LOOP_MAX_STEPS_PER_TURN: '',
    });
    expect(settings.identity.name).toBe('Friday');
    expect(settings.loop.maxStepsPerTurn).toBe(50);
    expect(warnings).toEqual([]);
  });

  it('honours the deprecated JARVIS_LOOP_MAX_RETRIES_PER_STEP with a warning', () => {
    const legacy = effectiveSettings(FULL, { JARVIS_LOOP_MAX_RETRIES_PER_STEP: '6' });
    expect(legacy.settings.loop.maxAttemptsPerStep).toBe(6);
    expect(legacy.warnings).toEqual([
      'JARVIS_LOOP_MAX_RETRIES_PER_STEP is deprecated; use JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP',
    ]);
    const both = effectiveSettings(FULL, {
      JARVIS_LOOP_MAX_RETRIES_PER_STEP: '6',
      JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP: '3',
    });
    expect(both.settings.loop.maxAttemptsPerStep).toBe(3);
    expect(both.warnings[0]).toContain('ignored because JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP is set');
  });

  it.each([['1'], ['true'], ['YES'], ['y']])(
    'JARVIS_DISABLE_TELEMETRY=%s disables telemetry even if config enables it',
    (value) => {
      expect(effectiveSettings(defaultConfig(), { JARVIS_DISABLE_TELEMETRY: value }).settings.telemetry).toBe(false);
    },
  );

  it('JARVIS_DISABLE_TELEMETRY=0 leaves telemetry on', () => {
    expect(effectiveSettings(defaultConfig(), { JARVIS_DISABLE_TELEMETRY: '0' }).settings.telemetry).toBe(true);
  });

  it('web service env overrides follow SPEC §3.14', () => {
    const run = (env: NodeJS.ProcessEnv) => effectiveSettings(FULL, env).settings.services;
    // An env base URL is a separate endpoint: configured key/headers are not forwarded.
    expect(run({ JARVIS_WEB_FETCH_BASE_URL: 'http://env-fetch' }).fetch).toEqual({
      baseUrl: 'http://env-fetch',
      apiKey: undefined,
    });
    // An env key alone keeps the configured endpoint and headers but replaces the credentials.
    expect(run({ JARVIS_WEB_FETCH_API_KEY: 'ek' }).fetch).toEqual({
      baseUrl: 'http://127.0.0.1:9/fetch',
      apiKey: 'ek',
      oauth: undefined,
      customHeaders: { 'X-Fetch': '1' },
    });
    // Env URL + key with nothing configured enables the service.
    const bare = effectiveSettings(defaultConfig(), {
      JARVIS_WEB_SEARCH_BASE_URL: 'http://s',
      JARVIS_WEB_SEARCH_API_KEY: 'k',
    });
    expect(bare.settings.services.search).toEqual({ baseUrl: 'http://s', apiKey: 'k' });
  });
});

describe('env value parsing', () => {
  it.each([
    ['1', true],
    ['TRUE', true],
    [' yes ', true],
    ['on', true],
    ['0', false],
    ['false', false],
    ['No', false],
    ['off', false],
    ['y', undefined],
    ['', undefined],
    ['2', undefined],
  ])('parseBooleanWord(%j) → %s', (value, expected) => {
    expect(parseBooleanWord(value)).toBe(expected);
  });

  it.each([
    ['12', 1, 12],
    [' 7 ', 1, 7],
    ['0', 1, undefined],
    ['1e3', 1, undefined],
    ['1.0', 1, undefined],
    ['', 0, undefined],
    ['0', 0, 0],
  ])('parseIntInRange(%j, %d) → %s', (value, min, expected) => {
    expect(parseIntInRange(value, min)).toBe(expected);
  });

  it.each([
    ['Jarvis', 'jarvis'],
    ['  Ops   Bot!! ', 'ops-bot'],
    ['日本', 'agent'],
    ['A.B_c', 'a-b-c'],
  ])('identitySlug(%j) → %s', (name, slug) => {
    expect(identitySlug(name)).toBe(slug);
  });
});

type S = ReturnType<typeof effectiveSettings>['settings'];
