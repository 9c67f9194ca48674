// Print mode has no one to ask: sensitive files and paths outside the workspace are refused — the
// same way for `../x`, an absolute path and a symlink — unless --add-dir or a permission rule
// allows them (docs/approvals.md "Sensitive files and the workspace").
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** cwd with a .env, a key and links out; a folder beside it with a secret. */
function world(): CliDirs & { outside: string } {
  const dirs = makeCliDirs();
  const outside = join(dirname(dirs.cwd), 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-CONTENT\n');
  writeFileSync(join(dirs.cwd, '.env'), 'API_KEY=ENV-SECRET\n');
  writeFileSync(join(dirs.cwd, 'a.txt'), 'INSIDE-CONTENT\n');
  symlinkSync(join(outside, 'secret.txt'), join(dirs.cwd, 'link-out.txt'));
  symlinkSync(join(dirs.cwd, '.env'), join(dirs.cwd, 'settings.txt'));
  return { ...dirs, outside };
}

type Call = { name: string; arguments: Record<string, unknown> };

/** Runs `jarvis -p` with the model making `calls` at once; returns each call's result text, in order. */
async function runCalls(dirs: CliDirs, calls: Call[], extraArgs: string[] = []): Promise<string[]> {
  const before = server.requests.length;
  server.push({ toolCalls: calls.map((c, i) => ({ id: `c${i}`, ...c })) }, { text: 'done' });
  const r = await runJarvis(['-p', 'go', ...extraArgs], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const results = new Map<string, string>();
  for (const m of server.requests[before + 1].body.messages)
    if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
  return calls.map((_c, i) => results.get(`c${i}`) ?? '');
}

describe('jarvis -p and paths outside the workspace', () => {
  it('refuses ../, absolute and symlinked paths out of cwd alike, and writes nothing there', async () => {
    const w = world();
    const results = await runCalls(w, [
      { name: 'Read', arguments: { path: '../../../../../../../../etc/passwd' } },
      { name: 'Read', arguments: { path: '/etc/passwd' } },
      { name: 'Read', arguments: { path: '../outside/secret.txt' } },
      { name: 'Read', arguments: { path: join(w.outside, 'secret.txt') } },
      { name: 'Read', arguments: { path: 'link-out.txt' } },
      { name: 'Write', arguments: { path: '../outside/new.txt', content: 'x' } },
      { name: 'Write', arguments: { path: join(w.outside, 'new.txt'), content: 'x' } },
      { name: 'Grep', arguments: { pattern: 'CONTENT', path: '..' } },
      { name: 'Glob', arguments: { pattern: '*', path: '/etc' } },
    ]);
    for (const text of results) {
      expect(text).toContain('is outside the workspace');
      expect(text).toContain('auto mode touches files outside it only when --add-dir or a permission rule allows it');
      expect(text).not.toMatch(/OUTSIDE-CONTENT|root:/);
      expect(text).not.toMatch(/must be absolute|call again with/);
    }
    expect(results[0]).toBe(results[1]);
    expect(results[2]).toBe(results[3]);
    expect(results[4]).toBe(results[3]);
    expect(existsSync(join(w.outside, 'new.txt'))).toBe(false);
  });

  it('refuses a hard link to a file outside (Read, Write, Edit), leaves it out of Grep, and the outside file is unchanged', async () => {
    const w = world();
    linkSync(join(w.outside, 'secret.txt'), join(w.cwd, 'hard.txt'));
    const results = await runCalls(w, [
      { name: 'Read', arguments: { path: 'hard.txt' } },
      { name: 'Write', arguments: { path: 'hard.txt', content: 'overwritten' } },
      { name: 'Edit', arguments: { path: 'hard.txt', old_string: 'OUTSIDE', new_string: 'CHANGED' } },
      { name: 'Grep', arguments: { pattern: 'CONTENT', output_mode: 'content' } },
    ]);
    for (const text of results.slice(0, 3)) {
      expect(text).toContain(
        `${join(w.cwd, 'hard.txt')} has more than one hard link, so it counts as outside the workspace`,
      );
      expect(text).not.toContain('OUTSIDE-CONTENT');
    }
    expect(results[3]).toContain('INSIDE-CONTENT');
    expect(results[3]).not.toContain('OUTSIDE-CONTENT');
    expect(results[3]).toContain('with more than one hard link skipped');
    expect(readFileSync(join(w.outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE-CONTENT\n');
  });

  it('refuses .env, directly and through a harmless-looking link, and leaves it unchanged', async () => {
    const w = world();
    const results = await runCalls(w, [
      { name: 'Read', arguments: { path: '.env' } },
      { name: 'Read', arguments: { path: 'settings.txt' } },
      { name: 'Write', arguments: { path: '.env', content: 'API_KEY=stolen' } },
      { name: 'Read', arguments: { path: 'a.txt' } },
    ]);
    for (const text of results.slice(0, 3)) {
      expect(text).toContain(`${join(w.cwd, '.env')} may hold secrets`);
      expect(text).not.toContain('ENV-SECRET');
    }
    expect(results[3]).toContain('INSIDE-CONTENT');
    expect(readFileSync(join(w.cwd, '.env'), 'utf8')).toBe('API_KEY=ENV-SECRET\n');
  });

  it('--add-dir and an allow rule open exactly what they name', async () => {
    const w = world();
    writeFileSync(join(w.home, 'config.toml'), '[[permission.rules]]\ndecision = "allow"\npattern = "Read(**/.env)"\n');
    const results = await runCalls(
      w,
      [
        { name: 'Read', arguments: { path: '../outside/secret.txt' } },
        { name: 'Write', arguments: { path: join(w.outside, 'made.txt'), content: 'made' } },
        { name: 'Read', arguments: { path: '.env' } },
        { name: 'Write', arguments: { path: '.env', content: 'x' } },
      ],
      ['--add-dir', '../outside'],
    );
    expect(results[0]).toContain('OUTSIDE-CONTENT');
    expect(existsSync(join(w.outside, 'made.txt'))).toBe(true);
    expect(results[2]).toContain('ENV-SECRET');
    expect(results[3]).toContain('may hold secrets');
  });
});

describe('jarvis -p "… @path"', () => {
  it('attaches a workspace file; attack: secrets and paths out of the workspace are not attached, with a warning each', async () => {
    const w = world();
    const before = server.requests.length;
    server.push({ text: 'done' });
    const prompt = 'explain @a.txt, @.env, @../outside/secret.txt, @link-out.txt and @settings.txt';
    const r = await runJarvis(['-p', prompt], {
      env: cliEnv(w, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: w.cwd,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.stringify(server.requests[before].body.messages.at(-1));
    expect(sent).toContain('<attached-file path=\\"a.txt\\" label=\\"1 line\\">\\n1\\tINSIDE-CONTENT');
    expect(sent).not.toMatch(/ENV-SECRET|OUTSIDE-CONTENT/);
    for (const name of ['.env', '../outside/secret.txt', 'link-out.txt', 'settings.txt'])
      expect(r.stderr).toContain(`warning: @${name} was not attached`);
  });
});
