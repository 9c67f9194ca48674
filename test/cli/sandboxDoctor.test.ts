// `jarvis doctor`'s command sandbox section (docs/sandbox.md): what it says where bwrap runs, where it cannot, and
// when config.toml is broken.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxDoctor } from '../../src/cli/sandboxDoctor';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

function homeWith(config: string): string {
  const home = mkdtempSync(join(tmpdir(), 'sandbox-doctor-'));
  writeFileSync(join(home, 'config.toml'), config);
  return home;
}

const ctx = (home: string) => ({ cwd: home, home, online: false, env: {} });

describe('doctor: command sandbox', () => {
  it.skipIf(!sandboxAvailable())('reports bubblewrap and the boundary where it runs', async () => {
    const section = await sandboxDoctor(ctx(homeWith('[sandbox]\nwritable_paths = ["/srv/cache"]\n')));
    expect(section?.ok).toBe(true);
    expect(section?.lines.join('\n')).toContain('creates namespaces here');
    expect(section?.lines.join('\n')).toContain('/srv/cache');
    expect(section?.lines.join('\n')).toContain('environment variables passed in: none (env_pass)');
    expect(section?.lines.join('\n')).toContain('! shell mode of the TUI: sandboxed');
    expect(section?.lines.join('\n')).toContain('capabilities inside: none, root included');
    expect(section?.lines.join('\n')).toContain('Unix sockets: refused by the seccomp filter');
  });

  it.skipIf(!sandboxAvailable())('names the Unix sockets commands may reach', async () => {
    const home = homeWith('[sandbox]\nunix_sockets = "own"\nallow_unix_sockets = ["/run/user/1000/bus"]\n');
    const text = (await sandboxDoctor(ctx(home)))?.lines.join('\n');
    expect(text).toContain('Unix sockets: commands may make their own');
    expect(text).toContain('reachable outside: /run/user/1000/bus (allow_unix_sockets)');
  });

  it.skipIf(!sandboxAvailable())('names the env_pass variables and the shell mode', async () => {
    const home = homeWith('[sandbox]\nenv_pass = ["NPM_TOKEN", "HF_TOKEN"]\nshell_mode = "unsandboxed"\n');
    const text = (await sandboxDoctor(ctx(home)))?.lines.join('\n');
    expect(text).toContain('environment variables passed in: NPM_TOKEN, HF_TOKEN (env_pass)');
    expect(text).toContain('! shell mode of the TUI: unsandboxed (shell_mode)');
  });

  it('needs attention when the sandbox is required and cannot run', async () => {
    const home = homeWith('[sandbox]\nrequired = true\nbwrap_path = "/nonexistent/bwrap"\n');
    const section = await sandboxDoctor(ctx(home));
    expect(section?.ok).toBe(false);
    expect(section?.lines[0]).toContain('/nonexistent/bwrap is not installed');
    expect(section?.lines[1]).toContain('refused');
  });

  it('is fine but says commands run unconfined when not required', async () => {
    const section = await sandboxDoctor(ctx(homeWith('[sandbox]\nbwrap_path = "/nonexistent/bwrap"\n')));
    expect(section?.ok).toBe(true);
    expect(section?.lines[1]).toContain('unconfined');
  });

  it('says it was not checked when config.toml is invalid', async () => {
    const section = await sandboxDoctor(ctx(homeWith('[sandbox]\nallowed_domains = ["https://x.test"]\n')));
    expect(section?.ok).toBe(false);
    expect(section?.lines[0]).toContain('sandbox.allowed_domains');
    expect(section?.lines[0]).toContain('allowed_domains[0]: expected a host name (registry.npmjs.org)');
    expect(section?.lines[0]).toContain('(not a host name, wildcard or IP address), got "https://x.test"');
  });

  it.skipIf(!sandboxAvailable())('shows the allowlist mode and its domains', async () => {
    const config = '[sandbox]\nnetwork = "allowlist"\nallowed_domains = ["registry.npmjs.org", "*.pythonhosted.org"]\n';
    const lines = (await sandboxDoctor(ctx(homeWith(config))))?.lines.join('\n');
    expect(lines).toContain(
      'network inside: allowlist, through the sandbox proxy, to registry.npmjs.org, *.pythonhosted.org',
    );
    const empty = await sandboxDoctor(ctx(homeWith('[sandbox]\nnetwork = "allowlist"\n')));
    expect(empty?.lines.join('\n')).toContain(
      'allowlist, through the sandbox proxy, to none: every connection is refused',
    );
  });
});
