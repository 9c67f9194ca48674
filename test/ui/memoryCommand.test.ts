import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/memoryStore';
import { setWorkspaceTrust } from '../../src/store/trust';
import { findCommand, type CommandHost, type PickItem } from '../../src/ui/slashCommands';

async function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-memcmd-')));
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  setWorkspaceTrust(home, cwd, true);
  const store = new MemoryStore({ home, cwd, trusted: () => true });
  const main = { mainAgent: true, origin: 'tool' as const };
  await store.remember(
    { scope: 'user', name: 'package manager', description: 'the user prefers pnpm', body: 'Use pnpm.' },
    main,
  );
  await store.remember(
    { scope: 'project', name: 'deploy', description: 'how to deploy', body: 'make deploy\nthen tag' },
    main,
  );
  await store.remember(
    { scope: 'workspace', name: 'deploy', description: 'local deploy notes', body: 'staging only' },
    main,
  );
  const seen = {
    notices: [] as string[],
    popups: [] as Array<{ title: string; lines: string[] }>,
    picks: [] as Array<{ title: string; items: PickItem[]; onPick(v: string): void; body?: string[] }>,
  };
  const host = {
    home,
    cwd,
    notice: (level: string, text: string) => seen.notices.push(`${level}: ${text}`),
    popup: (title: string, lines: string[]) => seen.popups.push({ title, lines }),
    pick: (title: string, items: PickItem[], onPick: (v: string) => void, body?: string[]) =>
      seen.picks.push({ title, items, onPick, body }),
  } as unknown as CommandHost;
  const run = (args: string) => findCommand('memory')!.run(host, args);
  return { home, cwd, store, seen, run };
}

describe('/memory', () => {
  it('lists the visible memories by scope and shows the chosen one in full', async () => {
    const { seen, run } = await setup();
    await run('');
    const [pick] = seen.picks;
    expect(pick.title).toBe('Memory (3) — Enter shows one');
    expect(pick.items.map((i) => i.label)).toEqual(['user: package manager', 'workspace: deploy', 'project: deploy']);
    pick.onPick('project:deploy');
    expect(seen.popups[0].title).toBe('Memory: deploy');
    expect(seen.popups[0].lines).toContain('make deploy');
    expect(seen.popups[0].lines.at(-1)).toBe('Forget it with /memory forget project:deploy');
  });

  it('shows and forgets by name; an ambiguous name asks for the scope', async () => {
    const { seen, run, store } = await setup();
    await run('show package manager');
    expect(seen.popups[0].lines).toContain('Use pnpm.');
    await run('forget deploy');
    expect(seen.notices.at(-1)).toBe(
      'error: "deploy" names memories in several scopes; say which: workspace:deploy, project:deploy.',
    );
    await run('forget project:deploy');
    expect(seen.notices.at(-1)).toBe('success: Forgot the project memory "deploy".');
    // A forget typed by the user may change user scope.
    await run('forget user:package manager');
    expect(store.list().records.map((r) => `${r.scope}:${r.name}`)).toEqual(['workspace:deploy']);
    await run('forget nothing');
    expect(seen.notices.at(-1)).toBe('error: No visible memory "nothing". /memory lists them.');
    await run('purge all');
    expect(seen.notices.at(-1)).toMatch(
      /^error: Expected \/memory, \/memory show <name> or \/memory forget <scope>:<name>/,
    );
  });

  it('an untrusted folder neither lists nor forgets its project memories', async () => {
    const { seen, run, home, cwd } = await setup();
    setWorkspaceTrust(home, cwd, false);
    await run('');
    expect(seen.picks[0].items.map((i) => i.label)).toEqual(['user: package manager', 'workspace: deploy']);
    expect(seen.picks[0].body).toEqual(['Project memories are hidden: this folder is not trusted.']);
    await run('forget project:deploy');
    expect(seen.notices.at(-1)).toBe('error: No visible memory "project:deploy". /memory lists them.');
  });
});
