// The session's network proxy for `[sandbox] network = "allowlist"` (docs/sandbox.md#the-network-allowlist): started
// on the first command that needs it, on a Unix socket in the session's private folder, and closed with the session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AllowlistProxy, type Refusal } from '../../platform/sandbox/allowlistProxy';
import { parseDomainRules, type DomainRule } from '../../platform/sandbox/domainAllowlist';
import { mkdirPrivateSync } from '../../store/privateFiles';

// A Unix socket's path holds at most 107 bytes on Linux; a longer session folder gets a private folder in the
// system's temporary folder instead.
const MAX_SOCKET_PATH = 100;
const SOCKET_NAME = 'network-proxy.sock';

export class SandboxNetworkProxy {
  private proxy?: AllowlistProxy;
  private tempDir?: string;
  readonly rules: readonly DomainRule[];

  constructor(allowedDomains: readonly string[]) {
    this.rules = parseDomainRules(allowedDomains);
  }

  /** The proxy's socket, starting the proxy for `sessionDir` on the first call. Throws with what failed. */
  socket(sessionDir: string): string {
    if (this.proxy) return this.proxy.socketPath;
    const socketPath = this.socketPathFor(sessionDir);
    this.proxy = AllowlistProxy.listenSync({ rules: this.rules, socketPath });
    return socketPath;
  }

  /** What the proxy refused since `since` (Date.now()): the hosts a failed command was denied. */
  refusedSince(since: number): Refusal[] {
    return this.proxy?.refusedSince(since) ?? [];
  }

  async close(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    await proxy?.close();
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }

  private socketPathFor(sessionDir: string): string {
    const inSession = join(sessionDir, SOCKET_NAME);
    if (Buffer.byteLength(inSession) <= MAX_SOCKET_PATH) {
      mkdirPrivateSync(sessionDir);
      return inSession;
    }
    this.tempDir = mkdtempSync(join(tmpdir(), 'jarvis-net-')); // created 0700
    return join(this.tempDir, SOCKET_NAME);
  }
}
