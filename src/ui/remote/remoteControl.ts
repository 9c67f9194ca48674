// `/remote`, `/remote off`, `/remote status` (docs/remote.md): shares the terminal's live session through the session
// server started in this process, prints the address it exposes, the login link and its QR code for a phone.
import type { Runtime } from '../../engine/runtime/runtime';
import type { PermissionMode } from '../../engine/session/records';
import type { RuntimeOptions } from '../../engine/runtime/runtime';
import type { ModelChoice } from '../../store/modelChoices';
import type { McpManager } from '../../ext/mcp/mcpManager';
import type { RemoteBridge } from './remoteBridge';
import type { RemoteLink, RemotePrompt, RemoteSettings, RemoteStarter } from './remoteLink';

export interface RemoteControlHost {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly mcp: McpManager | undefined;
  /** The runtime options now (they change on /reload). */
  readonly base: Pick<RuntimeOptions, 'plugins' | 'rules'>;
  ensureRuntime(): Runtime | undefined;
  send(text: string, prepared?: RemotePrompt): void;
  interrupt(): void;
  setMode(mode: PermissionMode, plan: boolean): void;
  switchModel(alias: string): string;
  models(): ModelChoice[];
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  /** Lines as they are (the QR code) in the conversation. */
  showLines(lines: string[]): void;
}

const USAGE = 'Usage: /remote [on] [--host <address>] [--port <n>] · /remote off · /remote status';

/** `/remote`'s arguments; a message for the user when they are not understood. */
export function parseRemoteArgs(args: string): { action: 'on' | 'off' | 'status'; settings: RemoteSettings } | string {
  const words = args.trim().split(/\s+/).filter(Boolean);
  let action: 'on' | 'off' | 'status' = 'on';
  if (words[0] === 'on' || words[0] === 'off' || words[0] === 'status') action = words.shift() as typeof action;
  const settings: RemoteSettings = {};
  while (words.length) {
    const flag = words.shift()!;
    const value = words.shift();
    if (action !== 'on' || (flag !== '--host' && flag !== '--port')) return `Not understood: "${flag}". ${USAGE}`;
    if (value === undefined) return `${flag} needs a value. ${USAGE}`;
    if (flag === '--host') settings.host = value;
    else {
      if (!/^\d{1,5}$/.test(value)) return `--port ${value}: give a port number 0-65535 (0 picks a free one).`;
      settings.port = Number(value);
    }
  }
  return { action, settings };
}

export class RemoteControl {
  private starting = false;

  constructor(
    private readonly bridge: RemoteBridge,
    private readonly starter: RemoteStarter | undefined,
    private readonly host: RemoteControlHost,
  ) {}

  get link(): RemoteLink | undefined {
    return this.bridge.link;
  }

  async command(args: string): Promise<void> {
    const parsed = parseRemoteArgs(args);
    if (typeof parsed === 'string') return this.host.notice('error', parsed);
    if (parsed.action === 'off') return this.stop('Remote off: the server stopped; the session goes on here.');
    if (parsed.action === 'status') return this.status();
    return this.start(parsed.settings);
  }

  private exposure(link: RemoteLink): string {
    return link.exposed.loopbackOnly
      ? `${link.exposed.address}, this machine only (loopback)`
      : `${link.exposed.address}, reachable from other machines (password required)`;
  }

  private status(): void {
    const link = this.link;
    if (!link) return this.host.notice('info', 'Remote is off. /remote shares this session with a browser.');
    const n = link.connections;
    this.host.notice(
      'info',
      `Remote on at ${link.url} — exposed on ${this.exposure(link)}; ${n} web connection${n === 1 ? '' : 's'}.`,
      '/remote off stops it.',
    );
  }

  private async start(settings: RemoteSettings): Promise<void> {
    const { host } = this;
    if (this.link) return this.status();
    if (!this.starter) return host.notice('warning', 'This front end cannot share its session (/remote).');
    if (this.starting) return;
    const runtime = host.ensureRuntime();
    if (!runtime) return;
    this.starting = true;
    let link: RemoteLink;
    try {
      link = await this.starter(
        {
          runtime,
          cwd: host.cwd,
          mcp: host.mcp,
          get base() {
            return host.base;
          },
          send: (text, prepared) => host.send(text, prepared),
          interrupt: () => host.interrupt(),
          setMode: (mode, plan) => host.setMode(mode, plan),
          switchModel: (alias) => host.switchModel(alias),
          models: () => host.models(),
          warn: (text) => host.notice('warning', `Remote: ${text}`),
        },
        settings,
      );
    } catch (e) {
      host.notice('error', `Remote did not start: ${(e as Error).message}`);
      return;
    } finally {
      this.starting = false;
    }
    this.bridge.link = link;
    const login = link.loginLink();
    host.notice(
      'success',
      `Remote on: this session is served at ${link.url} — exposed on ${this.exposure(link)}.`,
      login
        ? `Open ${login} in a browser (one-time link) or scan the code. /remote off stops it.`
        : `Clients use the token in ${link.tokenFile} (Authorization: Bearer). /remote off stops it.`,
    );
    const { renderQr } = await import('../../platform/terminalQr');
    host.showLines(['', ...renderQr(login ?? link.url, { color: !host.env.NO_COLOR }), '']);
  }

  /** Stops the server; the terminal keeps its session. */
  async stop(message: string | undefined): Promise<void> {
    const link = this.link;
    if (!link) {
      if (message) this.host.notice('info', 'Remote is already off.');
      return;
    }
    this.bridge.link = undefined;
    await link.close();
    if (message) this.host.notice('info', message);
  }

  /** Another session is shown here (/new, resume, /reload): the shared one is no longer this terminal's. */
  sessionChanged(): void {
    if (this.link)
      void this.stop('Remote stopped: this terminal now shows another session. /remote shares the new one.');
  }
}
