// The session's network proxy for the allowlist (docs/sandbox.md#the-network-allowlist): started once, in a private
// folder under JARVIS_CODE_HOME/sandbox (or the temporary folder when that path is too long for a Unix socket),
// started again when its socket was removed, and removed with the session.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxNetworkProxy } from '../../../src/tools/boundary/sandboxNetwork';

describe('the session network proxy', () => {
  it('starts once, in a 0700 folder under JARVIS_CODE_HOME/sandbox, and is removed when closed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'snp-'));
    const proxy = new SandboxNetworkProxy(['localhost'], home);
    const socket = proxy.socket();
    expect(dirname(dirname(socket))).toBe(join(home, 'sandbox'));
    expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
    expect(statSync(socket).isSocket()).toBe(true);
    expect(proxy.socket()).toBe(socket);
    await proxy.close();
    expect(existsSync(dirname(socket))).toBe(false);
  });

  it('uses the temporary folder when the path would be too long for a Unix socket', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'snp-')), 'x'.repeat(100));
    const proxy = new SandboxNetworkProxy([], home);
    const socket = proxy.socket();
    expect(socket.startsWith(join(tmpdir(), 'jarvis-net-'))).toBe(true);
    await proxy.close();
    expect(existsSync(socket)).toBe(false);
  });

  it('starts again when its socket was removed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'snp-'));
    const proxy = new SandboxNetworkProxy(['localhost'], home);
    const first = proxy.socket();
    rmSync(dirname(first), { recursive: true });
    const second = proxy.socket();
    expect(second).not.toBe(first);
    expect(statSync(second).isSocket()).toBe(true);
    await proxy.close();
    expect(existsSync(dirname(second))).toBe(false);
  });
});
