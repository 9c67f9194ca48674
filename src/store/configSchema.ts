// The shape of config.toml (docs/configuration.md). Every table is strict: an unknown key is an error, because a
// misspelt key that is silently ignored is worse than a startup error. The leaf schemas and the error machinery are
// in configFields.ts.
import { z } from 'zod';
import { CAPABILITIES, PROVIDER_TYPES } from '../types/models';
import { parseDomainRule } from '../types/domainRule';
import { bool, int, isRegex, nonEmpty, oneOf, str, stringList, stringTable, table } from './configFields';

/** Provider types the config accepts; the Google ones are valid config but not built yet. */
export const CONFIG_PROVIDER_TYPES = [...PROVIDER_TYPES, 'google-genai', 'vertexai'] as const;

export const HOOK_EVENTS = [
  'UserPromptSubmit',
  'UserPromptQueued',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionResult',
  'Stop',
  'StopFailure',
  'Interrupt',
  'TurnStarted',
  'SessionStart',
  'SessionEnd',
  'SessionHeartbeat',
  'SubagentStart',
  'SubagentStop',
  'TaskStarted',
  'PreCompact',
  'PostCompact',
  'Notification',
] as const;

/** Identity/routing fields of a model: `overrides` may not change which endpoint a model talks to. */
export const OVERRIDE_FORBIDDEN_KEYS = ['provider', 'model', 'protocol', 'beta_api', 'base_url'] as const;

export const INT32_MAX = 2_147_483_647;

// ---- config.toml ----

const oauthRef = table({ storage: nonEmpty(), key: nonEmpty() });

const providerSchema = table({
  type: oneOf(CONFIG_PROVIDER_TYPES),
  api_key: nonEmpty().optional(),
  base_url: nonEmpty().optional(),
  oauth: oauthRef.optional(),
  env: stringTable().optional(),
  custom_headers: stringTable().optional(),
  // Provenance written by importers (catalog, registry); opaque to us.
  source: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'a string or a table' }).optional(),
});

/** USD per million tokens: a finite number ≥ 0. */
const usdPerMillion = () =>
  z
    .number({ error: 'a number of US dollars per million tokens (≥ 0)' })
    .nonnegative({ error: 'a number of US dollars per million tokens (≥ 0)' })
    .finite({ error: 'a number of US dollars per million tokens (≥ 0)' });

/** What a request costs when the provider reports no cost (docs/configuration.md, "Prices"). */
const priceSchema = table({
  input: usdPerMillion(),
  output: usdPerMillion(),
  cache_read: usdPerMillion().optional(),
  cache_write: usdPerMillion().optional(),
});

/** Fields a model and its `overrides` table share. */
const modelTunables = {
  max_context_size: int(1),
  max_input_size: int(1).optional(),
  max_output_size: int(1).optional(),
  capabilities: z.array(oneOf(CAPABILITIES), { error: 'an array of capability names' }).optional(),
  support_efforts: stringList().optional(),
  default_effort: nonEmpty().optional(),
  off_effort: nonEmpty().optional(),
  display_name: nonEmpty().optional(),
  reasoning_key: nonEmpty().optional(),
  adaptive_thinking: bool().optional(),
  price: priceSchema.optional(),
};

const modelOverridesSchema = table({ ...modelTunables, max_context_size: int(1).optional() });

const modelSchema = table({
  provider: nonEmpty(),
  model: nonEmpty(),
  ...modelTunables,
  protocol: oneOf(CONFIG_PROVIDER_TYPES).optional(),
  beta_api: bool().optional(),
  base_url: nonEmpty().optional(),
  overrides: modelOverridesSchema.optional(),
});

const secondaryModelSchema = table({
  default_model: nonEmpty().optional(),
  models: stringTable().optional(),
  force: bool().default(false),
});

const thinkingSchema = table({
  enabled: bool().default(true),
  effort: oneOf(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  keep: z.union([z.string(), z.boolean(), z.number()], { error: 'a string, boolean or number' }).default('all'),
});

/** Generous, but an end: a model looping on valid calls stops here (docs/configuration.md; 0 = unlimited). */
export const DEFAULT_MAX_STEPS_PER_TURN = 500;

const loopControlSchema = table({
  max_steps_per_turn: int(0).default(DEFAULT_MAX_STEPS_PER_TURN),
  max_attempts_per_step: int(1).default(10),
  // Seconds retries of one request may take in all, counted from its first failure (docs/configuration.md).
  retry_budget_s: int(0).default(30),
  // Seconds to wait for a response's first byte, or for the next chunk of a stream; 0 = no limit.
  idle_timeout_s: int(0).default(120),
  // Seconds without a byte from the model before the user is told it has not answered yet; 0 = never.
  wait_notice_s: int(0).default(10),
  reserved_context_size: int(0).optional(),
  compaction_trigger_ratio: z
    .number({ error: 'a number greater than 0 and at most 1' })
    .gt(0, { error: 'a number greater than 0 and at most 1' })
    .lte(1, { error: 'a number greater than 0 and at most 1' })
    .default(0.85),
});

export const TOKEN_COUNTING_STRATEGIES = ['measured+estimated', 'measured', 'estimated'] as const;
export const PRINT_BACKGROUND_MODES = ['exit', 'drain', 'steer'] as const;

const backgroundSchema = table({
  max_running_tasks: int(1).optional(),
  keep_alive_on_exit: bool().default(false),
  kill_grace_period_ms: int(0).default(5000),
  bash_auto_background_on_timeout: bool().default(true),
  // Left unset here: its default depends on the front end (600 interactive, 0 in print mode).
  bash_task_timeout_s: int(0).optional(),
  print_background_mode: oneOf(PRINT_BACKGROUND_MODES).default('steer'),
  // Minutes, not days: print mode must not wait silently for ever (docs/print-mode.md).
  print_wait_ceiling_s: int(0, 2_147_483).default(600),
  print_max_turns: int(1).default(100_000),
});

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_PASS_EXPECTED = 'an array of environment variable names (letters, digits and _, not starting with a digit)';

// The command sandbox (docs/sandbox.md).
const sandboxSchema = table({
  enabled: bool().default(true),
  required: bool().default(false),
  network: oneOf(['off', 'on', 'allowlist']).default('off'),
  allowed_domains: allowedDomainList().default([]),
  auto_allow: bool().default(false),
  writable_paths: stringList().default([]),
  readable_home_paths: stringList().optional(),
  bwrap_path: nonEmpty().default('bwrap'),
  // Secrets in the environment are dropped inside the sandbox; these names pass (docs/sandbox.md).
  env_pass: z
    .array(z.string({ error: ENV_PASS_EXPECTED }).regex(ENV_NAME, { error: ENV_PASS_EXPECTED }), {
      error: ENV_PASS_EXPECTED,
    })
    .default([]),
  shell_mode: oneOf(['sandboxed', 'unsandboxed']).default('sandboxed'),
  // Unix sockets: refused inside by default; "own" lets commands make their own; the list names outside ones.
  unix_sockets: oneOf(['refuse', 'own']).default('refuse'),
  allow_unix_sockets: socketPathList().default([]),
});

const SOCKET_PATH_SHAPE = 'an absolute path, a path under ~/, or $NAME for the path an environment variable holds';
function socketPathList() {
  return stringList().superRefine((entries, ctx) => {
    for (const [i, entry] of entries.entries()) {
      const ok = entry.startsWith('/') || entry.startsWith('~/') || /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(entry);
      if (!ok)
        ctx.addIssue({ code: 'custom', path: [i], message: `${SOCKET_PATH_SHAPE} (got ${JSON.stringify(entry)})` });
    }
  });
}

// `[sandbox] allowed_domains`: host names, `*.` wildcards or IP literals, each with an optional :port.
const DOMAIN_SHAPE =
  'a host name (registry.npmjs.org), a wildcard (*.pythonhosted.org) or an IP address, each optionally with :port';
function allowedDomainList() {
  return stringList().superRefine((entries, ctx) => {
    for (const [i, entry] of entries.entries()) {
      const rule = parseDomainRule(entry);
      if ('error' in rule) ctx.addIssue({ code: 'custom', path: [i], message: `${DOMAIN_SHAPE} (${rule.error})` });
    }
  });
}

// Timeouts whose default depends on print mode are left unset; settings.ts applies them.
const timeoutOnly = () => table({ timeout_ms: int(0).optional() });

const mcpSchema = table({
  startup_timeout_ms: int(1, INT32_MAX).default(30_000),
  tool_timeout_ms: int(1, INT32_MAX).default(60_000),
});

const memorySchema = table({
  extraction_enabled: bool().default(true),
  // How long closing a session waits for the last extraction (docs/memory.md); 0 = not at all.
  extraction_exit_timeout_ms: int(0, INT32_MAX).default(5_000),
  recall_max_records: int(1).default(20),
  // 4 KiB keeps the first request small (docs/memory.md "Recall").
  recall_max_bytes: int(1).default(4_096),
});

const serviceSchema = table({
  base_url: nonEmpty().optional(),
  api_key: nonEmpty().optional(),
  oauth: oauthRef.optional(),
  custom_headers: stringTable().optional(),
});

// The OpenAI-compatible endpoints of the image_generation / audio_generation plugins (docs/plugins-official.md).
const generationServiceSchema = table({
  base_url: nonEmpty().optional(),
  api_key: nonEmpty().optional(),
  model: nonEmpty().optional(),
  /** audio_generation: the voice. */
  voice: nonEmpty().optional(),
  custom_headers: stringTable().optional(),
});

// docs/configuration.md: only these services exist; other keys are ignored (config.ts warns about them).
export const KNOWN_SERVICES = ['moonshot_search', 'moonshot_fetch', 'image_generation', 'audio_generation'] as const;
const servicesSchema = z.object(
  {
    moonshot_search: serviceSchema.optional(),
    moonshot_fetch: serviceSchema.optional(),
    image_generation: generationServiceSchema.optional(),
    audio_generation: generationServiceSchema.optional(),
  },
  { error: 'a table' },
);

// `[web]`: the web tools' network policy and the keys of the search backends (docs/web-tools.md).
const searchBackendSchema = table({ api_key: nonEmpty().optional(), base_url: nonEmpty().optional() });
const webSchema = table({
  allow_private_network: bool().default(false),
  brave: searchBackendSchema.optional(),
  langsearch: searchBackendSchema.optional(),
});

// `[browser]` and `[web_search]`: the browser profile (docs/browser.md).
const browserSchema = table({
  enabled: bool().default(false),
  executable: nonEmpty().optional(),
  cdp_url: nonEmpty().optional(),
  workspace_dir: nonEmpty().optional(),
  headed: bool().default(false),
  /** A `[models.<alias>]` for the `prompt` summaries of web_fetch / get_tab_content; default: the session's model. */
  summary_model: nonEmpty().optional(),
  subagent_timeout_s: int(1).default(600),
});
// `[webbridge]`: where the jarvis-webbridge plugin's server waits for its browser extension (docs/plugins-official.md).
const webbridgeSchema = table({
  port: int(1, 65_535).default(47_841),
  connect_timeout_s: int(1, 600).default(10),
});
const webSearchEngineSchema = table({
  engine: oneOf(['duckduckgo', 'bing', 'baidu', 'google_cse']).default('duckduckgo'),
  duckduckgo_url: nonEmpty().optional(),
  bing_url: nonEmpty().optional(),
  baidu_url: nonEmpty().optional(),
  google_cse_url: nonEmpty().optional(),
  bing_api_key: nonEmpty().optional(),
  google_api_key: nonEmpty().optional(),
  google_cse_id: nonEmpty().optional(),
});

// `[lsp]` and `[lsp.servers.<name>]`: language servers for diagnostics after edits and the Lsp tool (docs/lsp.md).
// A name that is not built in must give `command` and `file_patterns`; engine/runtime/startup/lspSettings.ts checks that.
const lspServerSchema = table({
  enabled: bool().default(true),
  command: nonEmpty().optional(),
  args: stringList().optional(),
  file_patterns: stringList().optional(),
  root_markers: stringList().optional(),
  initialization_options: z.record(z.string(), z.unknown(), { error: 'a table' }).optional(),
  install: nonEmpty().optional(),
});
const lspSchema = table({
  enabled: bool().default(true),
  diagnostics_wait_ms: int(0, 60_000).default(1_500),
  first_diagnostics_wait_ms: int(0, 600_000).default(60_000),
  max_diagnostics: int(1, 100).default(10),
  max_diagnostic_bytes: int(256, 65_536).default(4_096),
  servers: z.record(z.string(), lspServerSchema, { error: 'a table of language servers' }).default({}),
});

const TOOL_PATTERN = /^[A-Za-z0-9_*.-]+(\(.*\))?$/s;

const permissionRuleSchema = table({
  decision: oneOf(['allow', 'deny', 'ask']),
  pattern: nonEmpty()
    .regex(TOOL_PATTERN, {
      error: 'a tool pattern such as "Read", "Bash(npm test*)" or "mcp__github__*"',
    })
    // SPEC §6.7: rules match AgentSwarm by its name only.
    .refine((p) => !/^AgentSwarm\(/.test(p), {
      error: '"AgentSwarm" alone: rules match AgentSwarm by name only, with no argument pattern',
    }),
  scope: oneOf(['turn-override', 'session-runtime', 'project', 'user']).default('user'),
  reason: str().optional(),
});

export const hookSchema = table({
  event: oneOf(HOOK_EVENTS),
  matcher: str().refine(isRegex, { error: 'a valid regular expression' }).optional(),
  command: nonEmpty(),
  timeout: int(1, 600).default(30),
});

export const configSchema = table({
  default_model: nonEmpty().optional(),
  default_permission_mode: oneOf(['manual', 'yolo', 'auto']).default('manual'),
  default_plan_mode: bool().default(false),
  merge_all_available_skills: bool().default(true),
  extra_skill_dirs: stringList().default([]),
  extra_agent_dirs: stringList().default([]),
  builtin_product_skills: bool().default(true),
  telemetry: bool().default(true),
  active_search_provider: oneOf(['brave', 'langsearch', 'moonshot']).optional(),
  providers: z.record(z.string(), providerSchema, { error: 'a table of providers' }).default({}),
  models: z.record(z.string(), modelSchema, { error: 'a table of models' }).default({}),
  secondary_model: secondaryModelSchema.optional(),
  // Names agent files use for models (`sonnet`, `haiku`, `anthropic/claude-sonnet-4-5`) → a [models] alias.
  model_aliases: stringTable().default({}),
  thinking: thinkingSchema.prefault({}),
  loop_control: loopControlSchema.prefault({}),
  token_counting: table({ strategy: oneOf(TOKEN_COUNTING_STRATEGIES).default('measured+estimated') }).prefault({}),
  background: backgroundSchema.prefault({}),
  sandbox: sandboxSchema.prefault({}),
  goal: table({ max_idle_turns: int(1, 1000).default(3) }).prefault({}),
  subagent: timeoutOnly().prefault({}),
  swarm: timeoutOnly().prefault({}),
  mcp: mcpSchema.prefault({}),
  memory: memorySchema.prefault({}),
  identity: table({ name: nonEmpty().optional(), slug: nonEmpty().optional() }).prefault({}),
  tools: table({
    enabled: stringList().default([]),
    disabled: stringList().default([]),
    deferred: stringList().default([]),
    pinned: stringList().default([]),
  }).prefault({}),
  image: table({ max_edge_px: int(1).default(2000), read_byte_budget: int(1).default(262_144) }).prefault({}),
  services: servicesSchema.prefault({}),
  web: webSchema.prefault({}),
  browser: browserSchema.prefault({}),
  webbridge: webbridgeSchema.prefault({}),
  lsp: lspSchema.prefault({}),
  web_search: webSearchEngineSchema.prefault({}),
  permission: table({
    rules: z.array(permissionRuleSchema, { error: 'an array of [[permission.rules]] tables' }).default([]),
  }).prefault({}),
  hooks: z.array(hookSchema, { error: 'an array of [[hooks]] tables' }).default([]),
  // Other agents' folders and files that Jarvis also reads (docs/compatibility.md "Locations"); false = not read.
  compat: table({
    claude: bool().default(true),
    opencode: bool().default(true),
    codex: bool().default(true),
    gemini: bool().default(true),
    kimi: bool().default(true),
    claude_md: bool().default(true),
    nested_agents_md: bool().default(true),
    mcp_json: bool().default(true),
  }).prefault({}),
  experimental: table({ micro_compaction: bool().default(false) }).prefault({}),
  // Copies of files before the agent changes them, for /rewind (docs/sessions.md "Rewind").
  rewind: table({ snapshots: bool().default(true), max_file_bytes: int(0).default(10 * 1024 * 1024) }).prefault({}),
});

/** config.toml after validation, with every documented default applied. */
export type JarvisConfig = z.output<typeof configSchema>;
export type ProviderConfig = z.output<typeof providerSchema>;
export type ModelConfig = z.output<typeof modelSchema>;
export type ModelOverrides = z.output<typeof modelOverridesSchema>;
export type PermissionRuleConfig = z.output<typeof permissionRuleSchema>;
export type HookConfig = z.output<typeof hookSchema>;
export type LspServerEntry = z.output<typeof lspServerSchema>;
export type ServiceConfig = z.output<typeof serviceSchema>;
export type ConfigProviderType = (typeof CONFIG_PROVIDER_TYPES)[number];

/** The configuration an absent or empty config.toml means. */
export function defaultConfig(): JarvisConfig {
  return configSchema.parse({});
}
