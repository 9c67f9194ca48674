// Turns flags + config.toml + environment into what a front end needs to open a runtime. Every
// problem becomes a StartupError whose message says what is wrong and how to fix it.
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdirPrivateSync } from '../../../store/privateFiles';
import { join, resolve } from 'node:path';
import type { PermissionRule } from '../../policy/approvals';
import type { PermissionMode } from '../../session/records';
import type { RuntimeOptions } from '../runtime';
import { Session } from '../../session/session';
import { ConfigError, loadConfig, type JarvisConfig, type LoadedConfig } from '../../../store/config';
import { defaultConfig } from '../../../store/configSchema';
import { resolveModel } from '../../../store/modelResolution';
import { agentModelResolver } from '../../../store/agentModels';
import { subagentModelPool } from '../../../store/subagentModelPool';
import type { HookSpec } from '../../../ext/hooks/hookRunner';
import { loadMcpServers, type LoadedMcpServers } from '../../../store/mcpConfig';
import { configPath, jarvisHome, projectRoot } from '../../../store/paths';
import { isWorkspaceTrusted, workspaceTrust } from '../../../store/trust';
import type { ClaudeSettingsHooks } from '../../../ext/hooks/claudeSettingsHooks';
import { changedMcpFileWarnings } from './mcpTrustNotice';
import { effectiveSettings, type Settings } from '../../../store/settings';
import type { SessionLocation } from '../../../store/sessionStore';
import { webSettingsFromConfig } from '../../../tools/web';
import { sandboxSettingsFromConfig, sandboxStartupNotice } from './sandboxStartup';
import { browserOptionsFromConfig, type BrowserRuntimeOptions } from '../../../tools/browser/browserRuntime';
import { displayProblem } from '../../../platform/browser/browserSession';
import { BROWSER_AGENT } from '../../../types/browserProfile';
import { agentRoots, AgentFileError, loadAgentCatalog, type AgentCatalog } from '../../../ext/agents/agentCatalog';
import { loadSkillCatalog, skillRoots } from '../../../ext/skills/skillCatalog';
import type { PluginContributions } from '../../../ext/plugins/contributions';
import { shippedPluginFolders } from '../../../ext/plugins/shippedPlugins';
import { lspSettingsFromConfig } from './lspSettings';
import { attachClaudeCommands, claudeSettingsHooksFor } from './claudeStartup';
import type { ClaudeCommandsLoad } from '../../../ext/commands/claudeCommands';
import type { PeerCommandsLoad } from '../../../ext/commands/peerCommands';
import { attachPeerCommands } from './peerStartup';
import { trustForPrintMode } from './folderTrust';
import { readOpencodeConfigs } from '../../../store/opencodeConfig';
import { opencodeJsonAgents } from '../../../ext/agents/opencodeJsonAgents';

/** The command-line flags a launch reads (cli/program.ts parses them; the SDK sets the ones it offers). */
export interface LaunchFlags {
  session?: string | true;
  continue?: boolean;
  model?: string;
  yolo?: boolean;
  auto?: boolean;
  plan?: boolean;
  skillsDir?: string[];
  agent?: string[];
  agentFile?: string[];
  addDir?: string[];
  browser?: boolean;
  browserCdp?: string;
  headed?: boolean;
  /** Print mode's `--trust`: the working folder is trusted before anything trust gates loads. */
  trust?: boolean;
}

export class StartupError extends Error {
  /** `model`: no model or credentials resolve (ACP answers "authentication required"). */
  constructor(
    message: string,
    readonly problem?: 'model',
  ) {
    super(message);
  }
}

export interface Startup {
  home: string;
  cwd: string;
  config: JarvisConfig;
  configPath: string;
  settings: Settings;
  warnings: string[];
  /** What the launch did that the user should know (print mode: `info:` lines), e.g. `--trust`. */
  notes: string[];
  /** `[[hooks]]` of config.toml and the hooks of Claude Code's settings files, ready to run (plugins add theirs). */
  hooks: HookSpec[];
  /** What Claude Code's settings files gave, file by file (doctor lists it). */
  claudeSettings: ClaudeSettingsHooks;
  /** mcp.json servers (project ones only in a trusted workspace; the interactive UI may ask first). */
  mcp: LoadedMcpServers;
  /** Everything but the front-end parts (events, approval port, services). */
  runtime: Omit<RuntimeOptions, 'onEvent' | 'notificationDelivery'>;
  /** Claude Code's command files of this launch (filled by `loadExtensions`; doctor lists them). */
  claudeCommands?: ClaudeCommandsLoad;
  /** opencode's, Gemini CLI's and Codex's command files of this launch (filled by `loadExtensions`; doctor). */
  peerCommands?: PeerCommandsLoad;
  /** Every agent of this launch (filled by `loadExtensions`). */
  agents?: AgentCatalog;
  /** The sandbox's availability notice, probed in the background; `loadExtensions` adds it to the warnings. */
  sandboxNotice: Promise<string | undefined>;
}

/**
 * Reads skills and agent files (SPEC §9.1, §9.2) into the startup, and picks the main agent of a new
 * session from `--agent` / `--agent-file`. Broken files are warnings; a bad `--agent-file` or an
 * unknown `--agent` name is a StartupError.
 */
export async function loadExtensions(
  startup: Startup,
  options: LaunchFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { home, cwd, config } = startup;
  const plugins = await loadPlugins(startup, env);
  const skills = await loadSkillCatalog(
    skillRoots({
      home,
      cwd,
      env,
      skillsDirs: options.skillsDir,
      extraDirs: config.extra_skill_dirs,
      mergeAll: config.merge_all_available_skills,
      compat: startup.settings.compat,
    }),
    plugins?.skills,
  );
  startup.warnings.push(...skills.warnings);
  startup.claudeCommands = await attachClaudeCommands(startup, skills, env);
  startup.peerCommands = await attachPeerCommands(startup, skills, env);
  for (const s of startup.peerCommands.skipped.filter((x) => !x.why.startsWith('shadowed')))
    startup.warnings.push(`${s.path}: ${s.why}`);
  let agents: AgentCatalog;
  // opencode.json(c)'s `agent` section: below every agent folder, above plugins' agents.
  const opencodeConfigs = readOpencodeConfigs(projectRoot(cwd), startup.settings.compat, env, []);
  const opencodeAgents = opencodeJsonAgents(opencodeConfigs, env);
  startup.warnings.push(...opencodeAgents.warnings);
  try {
    agents = await loadAgentCatalog(
      agentRoots({ home, cwd, env, extraDirs: config.extra_agent_dirs, compat: startup.settings.compat }),
      options.agentFile?.[0] && resolve(cwd, options.agentFile[0]),
      [...opencodeAgents.agents, ...(plugins?.agents ?? [])],
    );
  } catch (e) {
    if (e instanceof AgentFileError) throw new StartupError(`jarvis: ${e.message}`);
    throw e;
  }
  startup.warnings.push(...agents.warnings);
  // `browser` is the built-in browser profile (docs/browser.md): the runtime gives it its own tools,
  // prompt and sub-agents (ext/agents/browserAgents.ts), not an agent file.
  const name = options.agent?.[0] === BROWSER_AGENT ? undefined : options.agent?.[0];
  if (name !== undefined && !agents.get(name)) {
    // A file of that name that could not be loaded says why (a missing description, a broken field).
    const why = agents.warnings.filter((w) => w.includes(`/${name}.md`) || w.includes(`agent "${name}"`));
    throw new StartupError(
      `jarvis: unknown agent "${name}". Available agents: ${[...agents.names, BROWSER_AGENT].join(', ')}.` +
        (why.length ? ` Not loaded: ${why.join('; ')}` : ''),
    );
  }
  startup.agents = agents;
  startup.runtime.agents = agents;
  startup.runtime.skills = skills;
  // --agent and --agent-file exclude each other (program.ts), so with --agent browser there is no explicit file.
  startup.runtime.agentProfile = name !== undefined ? agents.get(name) : agents.explicit;
  const sandboxNotice = await startup.sandboxNotice;
  if (sandboxNotice) startup.warnings.push(sandboxNotice);
}

/**
 * The enabled plugins (docs/plugins.md): their hooks and MCP servers join the startup's, the rest is
 * returned for the catalogs. The plugin code loads only when plugins are installed or shipped.
 */
async function loadPlugins(startup: Startup, env: NodeJS.ProcessEnv): Promise<PluginContributions | undefined> {
  const { home, cwd, config, settings } = startup;
  const bundled = shippedPluginFolders();
  if (!bundled.length && !existsSync(join(home, 'plugins', 'installed.json'))) return undefined;
  const { loadSessionPlugins } = await import('../../../ext/plugins/sessionPlugins');
  const plugins = await loadSessionPlugins({
    home,
    cwd,
    env,
    allowPrivateNetwork: config.web.allow_private_network,
    mcpDefaults: settings.mcp,
    bundled,
  });
  startup.warnings.push(...plugins.warnings);
  startup.hooks.push(...plugins.hooks);
  startup.runtime.hooks = startup.hooks;
  // Plugin servers know the session's folder (their own cwd is the plugin root unless the manifest says).
  startup.mcp.servers.push(
    ...plugins.mcpServers.map((s) =>
      s.transport === 'stdio' ? { ...s, env: { JARVIS_PROJECT_DIR: cwd, ...s.env } } : s,
    ),
  );
  startup.runtime.plugins = plugins.session;
  return plugins;
}

/** The data folder must exist and be writable (sessions, config template); one clear line if not. */
function checkHomeWritable(home: string, env: NodeJS.ProcessEnv): void {
  try {
    mkdirPrivateSync(home);
    accessSync(home, constants.W_OK);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? messageOf(e);
    const source = env.JARVIS_CODE_HOME?.trim() ? 'JARVIS_CODE_HOME' : 'the default data folder';
    throw new StartupError(
      `jarvis: cannot use the data folder ${home} (${source}): it is not a writable directory (${why}). Set JARVIS_CODE_HOME to a folder you can write to.`,
    );
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The `[[permission.rules]]` of a loaded config, each with the file and line it was written at. */
export function permissionRulesOf(loaded: LoadedConfig): PermissionRule[] {
  return loaded.config.permission.rules.map((r, i) => ({
    decision: r.decision,
    pattern: r.pattern,
    scope: r.scope,
    reason: r.reason,
    source: loaded.ruleSources[i],
  }));
}

export function loadStartup(
  options: LaunchFlags,
  ctx: {
    nonInteractive: boolean;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    /**
     * The SDK's default (docs/sdk.md "settingSources"): no config.toml, no Claude Code settings hooks and no MCP
     * servers are read; the built-in defaults apply, and the model comes from the flags and the environment.
     */
    withoutSettings?: boolean;
  },
): Startup {
  const env = ctx.env ?? process.env;
  const cwd = resolve(ctx.cwd ?? process.cwd());
  const home = jarvisHome(env);
  checkHomeWritable(home, env);
  let loaded: LoadedConfig;
  try {
    loaded = ctx.withoutSettings
      ? { config: defaultConfig(), path: configPath(home), existed: false, warnings: [], ruleSources: [] }
      : loadConfig(home);
  } catch (e) {
    if (e instanceof ConfigError)
      throw new StartupError(
        `jarvis: invalid configuration\n${e.message}\nFix the file (run \`jarvis doctor\` to check it); it was not changed.`,
      );
    throw e;
  }
  const { config } = loaded;
  const { settings, warnings: settingWarnings } = effectiveSettings(config, env, { printMode: ctx.nonInteractive });
  const warnings = [...loaded.warnings, ...settingWarnings];

  let resume: SessionLocation | undefined;
  if (options.continue) {
    resume = Session.findLatest(home, cwd);
    if (!resume)
      throw new StartupError(
        `jarvis: there is no session to continue in ${cwd}. Start one with jarvis -p "<task>" or jarvis.`,
      );
  } else if (typeof options.session === 'string') {
    resume = Session.findById(home, options.session, cwd);
    if (!resume)
      throw new StartupError(
        `jarvis: no session "${options.session}" was found (or the id prefix matches several). List them with jarvis sessions (--all for every folder).`,
      );
  } else if (options.session === true && ctx.nonInteractive) {
    throw new StartupError(
      'jarvis: --session without an id opens a picker, which needs the interactive UI. Give the session id, or use --continue.',
    );
  }

  let model;
  try {
    model = resolveModel({ config, env, cliModel: options.model, configPath: loaded.path });
  } catch (e) {
    throw new StartupError(`jarvis: ${messageOf(e)}`, 'model');
  }

  let subagentModels;
  try {
    subagentModels = subagentModelPool(config, env, loaded.path);
  } catch (e) {
    throw new StartupError(`jarvis: [secondary_model]: ${messageOf(e)}`);
  }

  let lsp;
  try {
    lsp = lspSettingsFromConfig(config, loaded.path);
  } catch (e) {
    if (e instanceof ConfigError)
      throw new StartupError(`jarvis: invalid configuration\n${e.message}\nFix the file; it was not changed.`);
    throw e;
  }

  const explicitMode: PermissionMode | undefined = options.yolo ? 'yolo' : options.auto ? 'auto' : undefined;
  const mode: PermissionMode = explicitMode ?? config.default_permission_mode;
  const rules = permissionRulesOf(loaded);

  const hooks: HookSpec[] = config.hooks.map((h) => ({ ...h, origin: 'config.toml' }));
  // --trust (print mode): recorded before anything trust gates is loaded (docs/ui.md "Workspace trust").
  const notes = options.trust && ctx.nonInteractive ? trustForPrintMode(home, cwd) : [];
  const claudeSettings: ClaudeSettingsHooks = ctx.withoutSettings
    ? { hooks: [], files: [], warnings: [] }
    : claudeSettingsHooksFor(home, cwd, env, settings);
  hooks.push(...claudeSettings.hooks);
  // The interactive UI asks about an undecided folder first; the files it would trust are named there.
  const undecided = !ctx.nonInteractive && workspaceTrust(home, cwd) === undefined;
  warnings.push(...claudeSettings.warnings.filter((w) => !(undecided && / not trusted /.test(w))));
  const mcp: LoadedMcpServers = ctx.withoutSettings
    ? {
        servers: [],
        untrusted: [],
        changed: [],
        changedFiles: [],
        changes: [],
        warnings: [],
        shadowed: [],
        snapshot: { files: {}, launch: {} },
      }
    : loadMcpServersFor(home, cwd, settings, isWorkspaceTrusted(home, cwd), env);
  warnings.push(...mcp.warnings);
  // The interactive UI asks about an undecided folder before it starts anything; otherwise say why
  // the project's servers stay off.
  if (mcp.untrusted.length && (ctx.nonInteractive || workspaceTrust(home, cwd) !== undefined)) {
    warnings.push(
      `project MCP servers not started because this workspace is not trusted: ${mcp.untrusted.map((s) => s.name).join(', ')} (trust it with jarvis trust, jarvis -p --trust, or when the interactive UI asks)`,
    );
  }
  // The interactive UI asks again about a changed file (docs/mcp.md, "Workspace trust"); print mode only says so.
  if (ctx.nonInteractive) warnings.push(...changedMcpFileWarnings(mcp));

  const sandbox = sandboxSettingsFromConfig(config, env);
  // Awaited at the end of loadExtensions: the probe runs while skills, agents and plugins load.
  const sandboxNotice = sandboxStartupNotice(sandbox);

  return {
    home,
    cwd,
    config,
    configPath: loaded.path,
    settings,
    warnings,
    notes,
    sandboxNotice,
    hooks,
    claudeSettings,
    mcp,
    runtime: {
      home,
      cwd,
      model,
      mode,
      modeOverride: explicitMode !== undefined,
      // --plan also switches a resumed session; default_plan_mode only starts new interactive ones.
      planMode: options.plan === true || (resume === undefined && !ctx.nonInteractive && config.default_plan_mode),
      resume,
      loop: {
        maxStepsPerTurn: settings.loop.maxStepsPerTurn,
        maxAttemptsPerStep: settings.loop.maxAttemptsPerStep,
        retryBudgetMs: settings.loop.retryBudgetMs,
        idleTimeoutMs: settings.loop.idleTimeoutMs,
        waitNoticeMs: settings.loop.waitNoticeMs,
      },
      rules,
      background: {
        maxRunningTasks: settings.background.maxRunningTasks,
        killGracePeriodMs: settings.background.killGracePeriodMs,
        keepAliveOnExit: settings.background.keepAliveOnExit,
        autoBackgroundOnTimeout: settings.background.bashAutoBackgroundOnTimeout,
        bashTaskTimeoutS: config.background.bash_task_timeout_s,
      },
      goal: { maxIdleTurns: config.goal.max_idle_turns },
      compat: settings.compat,
      delegation: {
        subagentTimeoutMs: settings.subagent.timeoutMs,
        swarmTimeoutMs: settings.swarm.timeoutMs,
        swarmMaxConcurrency: env.JARVIS_CODE_AGENT_SWARM_MAX_CONCURRENCY,
      },
      subagentModels,
      agentModels: {
        resolve: agentModelResolver({ config, env, configPath: loaded.path }),
        choices: Object.entries(config.models).map(([alias, m]) => ({ alias, hint: m.model })),
      },
      fileHistory: config.rewind.snapshots ? { maxFileBytes: config.rewind.max_file_bytes } : false,
      compaction: {
        triggerRatio: settings.loop.compactionTriggerRatio,
        reservedContextSize: settings.loop.reservedContextSize,
      },
      // JARVIS_MODEL_THINKING_EFFORT (model.defaultEffort) forces the effort over [thinking] effort.
      thinking: { enabled: config.thinking.enabled, effort: model.defaultEffort ?? config.thinking.effort },
      toolSwitch: { enabled: config.tools.enabled, disabled: config.tools.disabled },
      web: webSettingsFromConfig(config, settings.services.search, env),
      browser: browserSettings(options, config, { home, env, configPath: loaded.path }),
      deferral: { deferred: config.tools.deferred, pinned: config.tools.pinned },
      image: { maxEdgePx: settings.image.maxEdgePx, readByteBudget: settings.image.readByteBudget },
      sandbox,
      nonInteractive: ctx.nonInteractive,
      additionalDirs: (options.addDir ?? []).map((d) => resolve(cwd, d)),
      productName: settings.identity.name,
      hooks,
      memory: settings.memory,
      lsp,
    },
  };
}

/**
 * The browser settings of this launch (docs/browser.md) and what it asks for: `--agent browser` the
 * browser agent, `--browser` / `--browser-cdp` / `[browser] enabled` the page tools. Always returned,
 * because a resumed session may have been created with browser tools.
 */
function browserSettings(
  options: LaunchFlags,
  config: JarvisConfig,
  ctx: { home: string; env: NodeJS.ProcessEnv; configPath: string },
): BrowserRuntimeOptions {
  const profile =
    options.agent?.[0] === BROWSER_AGENT
      ? 'agent'
      : options.browser || options.browserCdp !== undefined || config.browser.enabled
        ? 'page-tools'
        : undefined;
  const settings = browserOptionsFromConfig(config, ctx.home, profile);
  if (options.browserCdp !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(options.browserCdp);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) {
      throw new StartupError(
        `jarvis: --browser-cdp "${options.browserCdp}" is not a browser debugging URL. Give the address of a Chrome/Chromium started with --remote-debugging-port, e.g. http://127.0.0.1:9222.`,
      );
    }
    settings.cdpUrl = options.browserCdp;
  }
  // --headed asks for a window now; `[browser] headed` asks for one whenever a display exists.
  const problem = displayProblem(ctx.env);
  if (options.headed && problem) throw new StartupError(`jarvis: --headed: ${problem}.`);
  settings.headed = !settings.cdpUrl && (options.headed === true || (config.browser.headed && !problem));
  const alias = config.browser.summary_model;
  if (alias !== undefined) {
    if (!config.models[alias]) {
      throw new StartupError(
        `jarvis: [browser] summary_model = "${alias}" in ${ctx.configPath}: no such model alias; defined aliases: ${Object.keys(config.models).join(', ') || '(none)'}.`,
      );
    }
    try {
      settings.summaryModel = resolveModel({ config, env: ctx.env, cliModel: alias, configPath: ctx.configPath });
    } catch (e) {
      throw new StartupError(`jarvis: [browser] summary_model = "${alias}": ${messageOf(e)}`);
    }
  }
  return settings;
}

/**
 * The servers of mcp.json for this folder, with the timeouts of `[mcp]` as defaults; `${VAR}` in them expands from
 * `env` (the launch's: an SDK query's own).
 */
export function loadMcpServersFor(
  home: string,
  cwd: string,
  settings: Settings,
  trusted: boolean,
  env: NodeJS.ProcessEnv = process.env,
): LoadedMcpServers {
  return loadMcpServers({ home, projectDir: cwd, trusted, defaults: settings.mcp, compat: settings.compat, env });
}
