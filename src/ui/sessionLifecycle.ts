// The session's life in the terminal UI, and what it runs with (docs/ui.md). At start: the first session
// (resumed with --continue/--session, or a fresh one when that fails), the folder's trust prompt, then the
// session picker of `--session` without an id. Later: /new, resuming, /model, and /reload, which reads the
// configuration, plugins and MCP servers again and reopens the same session with them.
import type { ApprovalPort } from '../engine/policy/approvals';
import type { EngineEvent } from '../engine/loop/events';
import type { InteractionPort } from '../engine/delegation/interactions';
import type { Runtime } from '../engine/runtime/runtime';
import { SessionControl, SessionControlError } from '../engine/runtime/sessionControl';
import type { McpManager } from '../ext/mcp/mcpManager';
import { DEFAULT_COMPAT } from '../store/compat';
import { loadMcpServers } from '../store/mcpConfig';
import { displayPath } from '../store/paths';
import { listSessions, type SessionLocation } from '../store/sessionStore';
import type { AppOptions, ReloadedOptions } from './appOptions';
import { trustDialog, needsTrustDecision } from './dialogs/trustPrompt';
import { serversForFolder } from '../platform/lsp/lspServers';
import { startUiMcpServers } from './mcpServers';
import type { PanelSlot } from './panelSlot';
import type { ViewState } from './transcript/block';
import { LinesBlock, NoticeBlock } from './transcript/messageBlocks';
import { blocksFromMessages } from './transcript/replay';
import type { Transcript } from './transcript/transcript';

export interface SessionLifecycleHost {
  readonly view: ViewState;
  readonly transcript: Transcript;
  readonly panels: PanelSlot;
  readonly modelLabel: string;
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  refreshContext(): void;
  /** Another session is shown (new, resumed): the conversation view starts over. */
  sessionChanged(): void;
  /** `/reload` read everything again: tui.toml is applied again and the conversation view starts over. */
  reloaded(): void;
}

/** How the engine reaches this UI: its questions and its events. */
export interface EnginePorts {
  approvalPort: ApprovalPort;
  interactionPort: InteractionPort;
  onEvent(event: EngineEvent): void;
}

export class SessionLifecycle {
  readonly controller: SessionControl;
  private opts: AppOptions;
  private mcpServers: McpManager | undefined;
  /** The trust question about files changed during the session is open. */
  private askingAgain = false;

  constructor(
    opts: AppOptions,
    ports: EnginePorts,
    private readonly host: SessionLifecycleHost,
  ) {
    this.opts = opts;
    this.mcpServers = this.startMcp();
    this.controller = new SessionControl({
      base: { ...opts.runtime, mcp: this.mcpServers },
      models: { config: opts.config, configPath: opts.configPath, env: opts.env },
      nonInteractive: false,
      notificationDelivery: 'agent',
      ...ports,
    });
  }

  /** As started, with what the last /reload read. */
  get options(): AppOptions {
    return this.opts;
  }

  /** The MCP servers of mcp.json (and enabled plugins); undefined when none are configured. */
  get mcp(): McpManager | undefined {
    return this.mcpServers;
  }

  /** Shows the first session, then asks whether to trust the folder (and to pick a session) where needed. */
  open(): void {
    const { host, opts } = this;
    host.transcript.add(this.banner());
    try {
      const resumed = this.controller.openInitial();
      if (resumed) this.showResumed(resumed.session.id);
    } catch (e) {
      // e.g. the session is locked by another process: say so and start fresh instead of crashing.
      void this.controller.newSession();
      host.notice(
        'error',
        `Could not resume the session: ${(e as Error).message}`,
        'Type to start a new session, or /sessions to pick another.',
      );
    }
    if (needsTrustDecision(opts.home, opts.cwd, opts.mcp, opts.runtime.compat ?? DEFAULT_COMPAT))
      this.askTrust((trusted) => this.afterTrust(trusted));
    else this.afterTrust(false);
  }

  /** The first lines of the transcript (again after an undo reprints it). */
  banner(): LinesBlock {
    const { view } = this.host;
    return new LinesBlock(view, () => {
      const { fg } = view.theme;
      return [
        `${view.theme.bold(fg.primary('✦ Jarvis Code'))} ${fg.textDim(`v${this.opts.version}`)}`,
        fg.textDim(`  ${displayPath(this.opts.cwd)} · ${this.host.modelLabel}`),
        fg.textMuted('  Type a message and press Enter. /help lists keys and commands.'),
      ];
    });
  }

  async newSession(): Promise<void> {
    await this.controller.newSession();
    this.host.sessionChanged();
    this.host.refreshContext();
    this.host.notice('info', 'New session. The previous one is kept: /sessions lists it.');
  }

  async resumeSession(location: SessionLocation): Promise<void> {
    let rt: Runtime;
    try {
      rt = await this.controller.resume(location);
    } catch (e) {
      this.host.notice(
        'error',
        `Could not resume the session: ${(e as Error).message}`,
        'The previous session was closed; type to start a new one.',
      );
      return;
    }
    this.host.sessionChanged();
    this.showResumed(rt.session.id);
  }

  async switchModel(alias: string): Promise<void> {
    try {
      this.controller.switchModel(alias);
    } catch (e) {
      const hint =
        e instanceof SessionControlError ? undefined : 'Pick one of the aliases defined under [models] in config.toml.';
      this.host.notice('error', (e as Error).message, hint);
      return;
    }
    this.host.refreshContext();
    this.host.notice(
      'success',
      `Model: ${this.host.modelLabel}`,
      'The provider prompt cache starts over; /new starts a fresh session.',
    );
  }

  /**
   * `/reload`: config.toml, tui.toml, plugins, skills, agents, hooks and MCP servers are read again and the
   * session reopens with them (its conversation goes on). A config.toml that does not load changes nothing.
   */
  async reload(): Promise<void> {
    const { host } = this;
    if (!this.opts.reloadOptions) {
      host.notice('warning', 'This front end cannot reload its configuration.');
      return;
    }
    let next: ReloadedOptions;
    try {
      next = await this.opts.reloadOptions();
    } catch (e) {
      host.notice(
        'error',
        `Nothing was reloaded: ${(e as Error).message}`,
        'Fix it and run /reload again; the session goes on as it was.',
      );
      return;
    }
    const location = this.controller.runtime?.session.location;
    await this.controller.close();
    await this.mcpServers?.close();
    this.opts = { ...this.opts, ...next };
    this.mcpServers = this.startMcp();
    this.controller.reconfigure(
      { ...next.runtime, mcp: this.mcpServers },
      { config: next.config, configPath: next.configPath, env: this.opts.env },
    );
    for (const w of next.warnings) host.notice('warning', w);
    host.reloaded();
    // A project MCP file changed meanwhile: asked again (docs/mcp.md, "Workspace trust").
    if (next.mcp?.changed.length) this.askTrust((trusted) => this.startApproved(trusted));
    if (location) {
      try {
        const rt = await this.controller.resume(location);
        for (const w of rt.warnings) host.notice('warning', w);
      } catch (e) {
        host.notice(
          'error',
          `Reloaded, but the session could not reopen: ${(e as Error).message}`,
          'Type to start a new session, or /sessions to pick one.',
        );
        return;
      }
    }
    host.refreshContext();
    host.notice(
      'success',
      location
        ? 'Reloaded config.toml, plugins, skills, agents, hooks and MCP servers; the session goes on with them.'
        : 'Reloaded config.toml, plugins, skills, agents, hooks and MCP servers; they apply from your first message.',
    );
  }

  /** Closes the session and stops the MCP servers (the app is shutting down). */
  async close(): Promise<void> {
    await this.controller.close(true);
    await this.mcpServers?.close();
  }

  private startMcp(): McpManager | undefined {
    return startUiMcpServers(
      this.opts,
      (level, text, hint) => this.host.notice(level, text, hint),
      (server) => this.askAboutChangedFiles(server),
    );
  }

  /**
   * A server was not started because a file it starts with changed after the session read it: the files are read
   * again and the trust question comes back for what changed; a yes starts those servers with the new content.
   */
  private askAboutChangedFiles(server: string): void {
    const { host, opts } = this;
    const config = this.mcpServers?.configOf(server);
    if (this.askingAgain || !config) return;
    const compat = opts.runtime.compat ?? DEFAULT_COMPAT;
    const defaults = { startupTimeoutMs: config.startupTimeoutMs, toolTimeoutMs: config.toolTimeoutMs };
    const fresh = loadMcpServers({
      home: opts.home,
      projectDir: opts.cwd,
      trusted: true,
      defaults,
      compat,
      env: opts.env,
    });
    if (!fresh.changed.length) return;
    this.askingAgain = true;
    const done = (trusted: boolean) => {
      this.askingAgain = false;
      host.panels.close();
      if (trusted) for (const s of fresh.changed) void this.mcpServers?.add(s);
    };
    host.panels.open(trustDialog(host.view.theme, opts.home, opts.cwd, compat, done, fresh));
  }

  /** The trust prompt; about the changed project MCP files only when the folder is already trusted. */
  private askTrust(done: (trusted: boolean) => void): void {
    const { host, opts } = this;
    const compat = opts.runtime.compat ?? DEFAULT_COMPAT;
    const lsp = opts.runtime.lsp;
    const languageServers = lsp?.enabled
      ? serversForFolder(lsp.servers, opts.cwd).map((s) => `${s.name} (${s.marker})`)
      : [];
    host.panels.open(trustDialog(host.view.theme, opts.home, opts.cwd, compat, done, opts.mcp, languageServers));
  }

  /** Starts the project servers held back for trust (untrusted folder, or files changed since trusted). */
  private startApproved(trustedNow: boolean): void {
    this.host.panels.close();
    if (!trustedNow) return;
    const mcp = this.opts.mcp;
    for (const server of [...(mcp?.untrusted ?? []), ...(mcp?.changed ?? [])]) void this.mcpServers?.add(server);
  }

  private afterTrust(trustedNow: boolean): void {
    const { host, opts } = this;
    this.startApproved(trustedNow);
    if (!opts.pickSession) return;
    const sessions = listSessions(opts.home, opts.cwd);
    if (sessions.length) {
      const byId = new Map(sessions.map((s) => [s.sessionId, s]));
      host.panels.pick(
        'Resume a session',
        sessions.slice(0, 50).map((s) => ({
          value: s.sessionId,
          label: (s.summary?.title ?? s.summary?.lastPrompt ?? '(no prompt yet)').split('\n')[0].slice(0, 60),
          description: s.sessionId.slice(-8),
        })),
        (id) => void this.resumeSession(byId.get(id)!),
      );
    } else host.notice('info', `No sessions in ${displayPath(opts.cwd)} yet; starting a new one.`);
  }

  private showResumed(id: string): void {
    const { host } = this;
    const rt = this.controller.runtime!;
    for (const w of rt.warnings) host.transcript.add(new NoticeBlock(host.view, 'warning', w));
    for (const b of blocksFromMessages(rt.session.state.messages, host.view, rt.session.state.compactions))
      host.transcript.add(b);
    host.refreshContext();
    host.notice('info', `Resumed session ${id}${rt.session.state.title ? ` — ${rt.session.state.title}` : ''}`);
  }
}
