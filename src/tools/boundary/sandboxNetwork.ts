// The session's network proxy for `[sandbox] network = "allowlist"` (docs/sandbox.md#the-network-allowlist): started
// on the first command that needs it and closed with the session. Its Unix socket lives in a private (0700) folder of
// its own under JARVIS_CODE_HOME/sandbox, which commands cannot see: not in the session's folder, which commands may
// write (one could swap the socket for a link to another socket that the next command would get bound in) and which
// a fork copies.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AllowlistProxy, type Refusal } from '../../platform/sandbox/allowlistProxy';
import { parseDomainRules, type DomainRule } from '../../platform/sandbox/domainAllowlist';
import { mkdirPrivateSync } from '../../store/privateFiles';

// A Unix socket's path holds at most 107 bytes on Linux; past this, the private folder is made in the system's
// temporary folder instead.
const MAX_SOCKET_PATH = 107;
const SOCKET_NAME = 'proxy.sock';

export class SandboxNetworkProxy {
  private proxy?: AllowlistProxy;
  private readonly retired: AllowlistProxy[] = [];
  private readonly dirs: string[] = [];
  readonly rules: readonly DomainRule[];

  constructor(
    allowedDomains: readonly string[],
    private readonly jarvisHome: string,
  ) {
    this.rules = parseDomainRules(allowedDomains);
  }

  /**
   * The proxy's socket, starting the proxy on the first call, and again when its socket was removed (a cleaner of
   * the temporary folder). Throws with what failed.
   */
  socket(): string {
    if (this.proxy && existsSync(this.proxy.socketPath)) return this.proxy.socketPath;
    // The old one keeps serving the connections it has (commands still running) until the session closes.
    if (this.proxy) this.retired.push(this.proxy);
    const socketPath = this.newSocketPath();
    this.proxy = AllowlistProxy.listenSync({ rules: this.rules, socketPath });
    return socketPath;
  }

  /** What the proxy refused since `since` (Date.now()): the hosts a failed command was denied. */
  refusedSince(since: number): Refusal[] {
    return [...this.retired, ...(this.proxy ? [this.proxy] : [])].flatMap((p) => p.refusedSince(since));
  }

  async close(): Promise<void> {
    const proxies = [...this.retired.splice(0), ...(this.proxy ? [this.proxy] : [])];
    this.proxy = undefined;
    await Promise.all(proxies.map((p) => p.close()));
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }

  private newSocketPath(): string {
    const parent = join(this.jarvisHome, 'sandbox');
    // mkdtemp adds six characters and creates the folder 0700.
    const fits = Buffer.byteLength(join(parent, 'net-XXXXXX', SOCKET_NAME)) <= MAX_SOCKET_PATH;
    if (fits) mkdirPrivateSync(parent);
    const dir = mkdtempSync(join(fits ? parent : tmpdir(), fits ? 'net-' : 'jarvis-net-'));
    this.dirs.push(dir);
    return join(dir, SOCKET_NAME);
  }
}
