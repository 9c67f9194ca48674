// The runtime settings: config.toml values with the documented environment overrides applied
// (docs/configuration.md). Env values are parsed here once; a bad env value is ignored with a warning
// rather than stopping the program, because env vars are usually set far from where they bite.
import type { CompatSettings } from './compat';
import { INT32_MAX, TOKEN_COUNTING_STRATEGIES, type JarvisConfig, type ServiceConfig } from './configSchema';

export type TokenCountingStrategy = (typeof TOKEN_COUNTING_STRATEGIES)[number];
export type PrintBackgroundMode = JarvisConfig['background']['print_background_mode'];

export interface ServiceEndpoint {
  baseUrl?: string;
  apiKey?: string;
  oauth?: { storage: string; key: string };
  customHeaders?: Record<string, string>;
}

export interface Settings {
  loop: {
    /** 0 = unlimited. */
    maxStepsPerTurn: number;
    /** Total attempts per step, the first one included. */
    maxAttemptsPerStep: number;
    /** Retries of one request stop this long after its first failure. */
    retryBudgetMs: number;
    /** No first byte, or no next chunk, for this long = timeout (0 = none). */
    idleTimeoutMs: number;
    /** No byte for this long = the user is told the model is silent (0 = never). */
    waitNoticeMs: number;
    reservedContextSize?: number;
    compactionTriggerRatio: number;
  };
  tokenCounting: { strategy: TokenCountingStrategy };
  background: {
    /** Undefined = no cap. */
    maxRunningTasks?: number;
    keepAliveOnExit: boolean;
    killGracePeriodMs: number;
    bashAutoBackgroundOnTimeout: boolean;
    /** 0 = no timeout. */
    bashTaskTimeoutS: number;
    printBackgroundMode: PrintBackgroundMode;
    printWaitCeilingS: number;
    printMaxTurns: number;
  };
  /** 0 = no timeout. */
  subagent: { timeoutMs: number };
  swarm: { timeoutMs: number };
  mcp: { startupTimeoutMs: number; toolTimeoutMs: number };
  image: { maxEdgePx: number; readByteBudget: number };
  memory: {
    extractionEnabled: boolean;
    extractionExitTimeoutMs: number;
    recallMaxRecords: number;
    recallMaxBytes: number;
  };
  identity: { name: string; slug: string };
  telemetry: boolean;
  builtinProductSkills: boolean;
  services: { search?: ServiceEndpoint; fetch?: ServiceEndpoint };
  /** `[compat]`: which other agents' locations are read (docs/compatibility.md). */
  compat: CompatSettings;
}

export interface EffectiveSettings {
  settings: Settings;
  warnings: string[];
}

export const DEFAULT_IDENTITY_NAME = 'Jarvis';
const SUBAGENT_DEFAULT_TIMEOUT_MS = 7_200_000;
const BASH_TASK_DEFAULT_TIMEOUT_S = 600;

// ---- env value parsing (shared with modelResolution) ----

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const FALSY = new Set(['0', 'false', 'no', 'off']);

/** `1/true/yes/on` → true, `0/false/no/off` → false (case-insensitive), anything else undefined. */
export function parseBooleanWord(value: string): boolean | undefined {
  const word = value.trim().toLowerCase();
  if (TRUTHY.has(word)) return true;
  if (FALSY.has(word)) return false;
  return undefined;
}

/** A plain decimal integer within bounds, or undefined. `"12abc"`, `"1e3"`, `"1.5"` are not integers. */
export function parseIntInRange(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const text = value.trim();
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/** An env var's value, or undefined when unset or blank. */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/** Derives a User-Agent/MCP-safe slug: lowercase, non-alphanumeric runs → `-`; nothing left → `agent`. */
export function identitySlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'agent';
}

class EnvReader {
  readonly warnings: string[] = [];
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  int(name: string, min: number, max?: number): number | undefined {
    const raw = envValue(this.env, name);
    if (raw === undefined) return undefined;
    const n = parseIntInRange(raw, min, max);
    if (n === undefined) {
      const range = max === undefined ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
      this.warnings.push(`${name}=${JSON.stringify(raw)} ignored: expected ${range}`);
    }
    return n;
  }

  bool(name: string): boolean | undefined {
    const raw = envValue(this.env, name);
    if (raw === undefined) return undefined;
    const b = parseBooleanWord(raw);
    if (b === undefined)
      this.warnings.push(`${name}=${JSON.stringify(raw)} ignored: expected 1/true/yes/on or 0/false/no/off`);
    return b;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = envValue(this.env, name);
    if (raw === undefined) return undefined;
    const found = values.find((v) => v === raw.trim().toLowerCase());
    if (found === undefined)
      this.warnings.push(`${name}=${JSON.stringify(raw)} ignored: expected one of ${values.join(', ')}`);
    return found;
  }

  text(name: string): string | undefined {
    return envValue(this.env, name)?.trim();
  }
}

function loopSettings(config: JarvisConfig, env: EnvReader): Settings['loop'] {
  let attempts = env.int('JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP', 1);
  if (env.text('JARVIS_LOOP_MAX_RETRIES_PER_STEP') !== undefined) {
    if (attempts !== undefined) {
      env.warnings.push(
        'JARVIS_LOOP_MAX_RETRIES_PER_STEP is deprecated and ignored because JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP is set',
      );
    } else {
      env.warnings.push('JARVIS_LOOP_MAX_RETRIES_PER_STEP is deprecated; use JARVIS_LOOP_MAX_ATTEMPTS_PER_STEP');
      attempts = env.int('JARVIS_LOOP_MAX_RETRIES_PER_STEP', 1);
    }
  }
  const lc = config.loop_control;
  return {
    maxStepsPerTurn: env.int('JARVIS_LOOP_MAX_STEPS_PER_TURN', 0) ?? lc.max_steps_per_turn,
    maxAttemptsPerStep: attempts ?? lc.max_attempts_per_step,
    retryBudgetMs: lc.retry_budget_s * 1000,
    idleTimeoutMs: lc.idle_timeout_s * 1000,
    waitNoticeMs: lc.wait_notice_s * 1000,
    reservedContextSize: lc.reserved_context_size,
    compactionTriggerRatio: lc.compaction_trigger_ratio,
  };
}

function backgroundSettings(config: JarvisConfig, env: EnvReader, printMode: boolean): Settings['background'] {
  const bg = config.background;
  return {
    maxRunningTasks: env.int('JARVIS_CODE_BACKGROUND_MAX_RUNNING_TASKS', 1) ?? bg.max_running_tasks,
    keepAliveOnExit: env.bool('JARVIS_CODE_BACKGROUND_KEEP_ALIVE_ON_EXIT') ?? bg.keep_alive_on_exit,
    killGracePeriodMs: bg.kill_grace_period_ms,
    bashAutoBackgroundOnTimeout: bg.bash_auto_background_on_timeout,
    bashTaskTimeoutS: bg.bash_task_timeout_s ?? (printMode ? 0 : BASH_TASK_DEFAULT_TIMEOUT_S),
    printBackgroundMode: bg.print_background_mode,
    printWaitCeilingS: bg.print_wait_ceiling_s,
    printMaxTurns: bg.print_max_turns,
  };
}

function serviceEndpoint(
  configured: ServiceConfig | undefined,
  envBaseUrl: string | undefined,
  envApiKey: string | undefined,
): ServiceEndpoint | undefined {
  // An env base URL is a different endpoint: nothing configured for the old one travels with it.
  if (envBaseUrl !== undefined) return { baseUrl: envBaseUrl, apiKey: envApiKey };
  if (!configured) return envApiKey === undefined ? undefined : { apiKey: envApiKey };
  const endpoint: ServiceEndpoint = {
    baseUrl: configured.base_url,
    apiKey: configured.api_key,
    oauth: configured.oauth,
    customHeaders: configured.custom_headers,
  };
  // An env key alone keeps the configured endpoint and headers but replaces its credentials.
  if (envApiKey !== undefined) return { ...endpoint, apiKey: envApiKey, oauth: undefined };
  return endpoint;
}

function identitySettings(config: JarvisConfig, env: EnvReader): Settings['identity'] {
  const name = env.text('JARVIS_CODE_IDENTITY_NAME') ?? config.identity.name ?? DEFAULT_IDENTITY_NAME;
  const slug = env.text('JARVIS_CODE_IDENTITY_SLUG') ?? config.identity.slug ?? name;
  return { name, slug: identitySlug(slug) };
}

function telemetryDisabledByEnv(env: NodeJS.ProcessEnv): boolean {
  const raw = envValue(env, 'JARVIS_DISABLE_TELEMETRY');
  return raw !== undefined && ['1', 'true', 'yes', 'y'].includes(raw.trim().toLowerCase());
}

/**
 * Config plus env overrides → the settings the engine runs with. `printMode` selects the print-mode
 * defaults of timeouts the config left unset (background Bash, subagent, swarm: none).
 */
export function effectiveSettings(
  config: JarvisConfig,
  env: NodeJS.ProcessEnv = process.env,
  opts: { printMode?: boolean } = {},
): EffectiveSettings {
  const read = new EnvReader(env);
  const printMode = opts.printMode ?? false;
  const defaultAgentTimeout = printMode ? 0 : SUBAGENT_DEFAULT_TIMEOUT_MS;
  const clamp = (ms: number) => Math.min(ms, INT32_MAX);

  const settings: Settings = {
    loop: loopSettings(config, read),
    tokenCounting: {
      strategy:
        read.oneOf('JARVIS_TOKEN_COUNTING_STRATEGY', TOKEN_COUNTING_STRATEGIES) ?? config.token_counting.strategy,
    },
    background: backgroundSettings(config, read, printMode),
    subagent: {
      timeoutMs: clamp(read.int('JARVIS_SUBAGENT_TIMEOUT_MS', 1) ?? config.subagent.timeout_ms ?? defaultAgentTimeout),
    },
    swarm: {
      timeoutMs: clamp(read.int('JARVIS_CODE_SWARM_TIMEOUT_MS', 1) ?? config.swarm.timeout_ms ?? defaultAgentTimeout),
    },
    mcp: {
      startupTimeoutMs: read.int('JARVIS_MCP_STARTUP_TIMEOUT_MS', 1, INT32_MAX) ?? config.mcp.startup_timeout_ms,
      toolTimeoutMs: read.int('JARVIS_MCP_TOOL_TIMEOUT_MS', 1, INT32_MAX) ?? config.mcp.tool_timeout_ms,
    },
    image: {
      maxEdgePx: read.int('JARVIS_IMAGE_MAX_EDGE_PX', 1) ?? config.image.max_edge_px,
      readByteBudget: read.int('JARVIS_IMAGE_READ_BYTE_BUDGET', 1) ?? config.image.read_byte_budget,
    },
    memory: {
      extractionEnabled: read.bool('JARVIS_MEMORY_EXTRACTION_ENABLED') ?? config.memory.extraction_enabled,
      extractionExitTimeoutMs:
        read.int('JARVIS_MEMORY_EXTRACTION_EXIT_TIMEOUT_MS', 0, INT32_MAX) ?? config.memory.extraction_exit_timeout_ms,
      recallMaxRecords: config.memory.recall_max_records,
      recallMaxBytes: config.memory.recall_max_bytes,
    },
    identity: identitySettings(config, read),
    telemetry: config.telemetry && !telemetryDisabledByEnv(env),
    builtinProductSkills: read.bool('JARVIS_CODE_BUILTIN_PRODUCT_SKILLS') ?? config.builtin_product_skills,
    services: {
      search: serviceEndpoint(
        config.services.moonshot_search,
        read.text('JARVIS_WEB_SEARCH_BASE_URL'),
        read.text('JARVIS_WEB_SEARCH_API_KEY'),
      ),
      fetch: serviceEndpoint(
        config.services.moonshot_fetch,
        read.text('JARVIS_WEB_FETCH_BASE_URL'),
        read.text('JARVIS_WEB_FETCH_API_KEY'),
      ),
    },
    compat: {
      claude: config.compat.claude,
      opencode: config.compat.opencode,
      codex: config.compat.codex,
      gemini: config.compat.gemini,
      kimi: config.compat.kimi,
      claudeMd: config.compat.claude_md,
      nestedAgentsMd: config.compat.nested_agents_md,
      mcpJson: config.compat.mcp_json,
    },
  };
  return { settings, warnings: read.warnings };
}
