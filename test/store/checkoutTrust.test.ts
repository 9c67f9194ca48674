// Trust for a file's own checkout (docs/lsp.md "Where servers run"): the nearest decision recorded for a folder or a
// folder above it decides, unless a separate checkout (its own .git) lies between them; nothing decided is untrusted.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCheckoutTrusted, setWorkspaceTrust } from '../../src/store/trust';

function layout() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-checkout-trust-')));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  for (const dir of [home, join(repo, '.git'), join(repo, 'packages/web/src'), join(repo, 'vendor/lib/.git')])
    mkdirSync(dir, { recursive: true });
  mkdirSync(join(repo, 'vendor/worktree'), { recursive: true });
  writeFileSync(join(repo, 'vendor/worktree/.git'), 'gitdir: /elsewhere\n');
  mkdirSync(join(root, 'other'));
  return { root, home, repo };
}

describe('isCheckoutTrusted', () => {
  it('covers the trusted folder and the folders inside it of the same checkout', () => {
    const { home, repo } = layout();
    expect(isCheckoutTrusted(home, repo)).toBe(false);
    setWorkspaceTrust(home, repo, true);
    expect(isCheckoutTrusted(home, repo)).toBe(true);
    expect(isCheckoutTrusted(home, join(repo, 'packages/web/src'))).toBe(true);
  });

  it('not a checkout nested inside it (a .git folder or a worktree .git file), nor a folder outside it', () => {
    const { root, home, repo } = layout();
    setWorkspaceTrust(home, repo, true);
    expect(isCheckoutTrusted(home, join(repo, 'vendor/lib'))).toBe(false);
    expect(isCheckoutTrusted(home, join(repo, 'vendor/worktree'))).toBe(false);
    expect(isCheckoutTrusted(home, join(root, 'other'))).toBe(false);
    expect(isCheckoutTrusted(home, root)).toBe(false);
    setWorkspaceTrust(home, join(repo, 'vendor/lib'), true);
    expect(isCheckoutTrusted(home, join(repo, 'vendor/lib'))).toBe(true);
  });

  it('the nearest decision wins: a revoked folder inside a trusted one is not trusted', () => {
    const { home, repo } = layout();
    setWorkspaceTrust(home, repo, true);
    setWorkspaceTrust(home, join(repo, 'packages'), false);
    expect(isCheckoutTrusted(home, join(repo, 'packages/web/src'))).toBe(false);
    expect(isCheckoutTrusted(home, repo)).toBe(true);
  });

  it('a sibling whose name starts like the trusted folder is not inside it; links are followed to real paths', () => {
    const { root, home, repo } = layout();
    setWorkspaceTrust(home, repo, true);
    mkdirSync(join(root, 'repo-evil'));
    expect(isCheckoutTrusted(home, join(root, 'repo-evil'))).toBe(false);
    symlinkSync(join(root, 'other'), join(repo, 'packages/link'));
    expect(isCheckoutTrusted(home, join(repo, 'packages/link'))).toBe(false);
    symlinkSync(repo, join(root, 'alias'));
    expect(isCheckoutTrusted(home, join(root, 'alias/packages/web'))).toBe(true);
  });

  it('a damaged trust file trusts nothing', () => {
    const { home, repo } = layout();
    writeFileSync(join(home, 'trusted_workspaces.json'), '{"workspaces": {');
    expect(isCheckoutTrusted(home, repo)).toBe(false);
  });
});
