import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../../src/platform/zip';
import { sessionDirFor } from '../../src/store/sessionStore';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { BIN, cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { requireSystemPart } from '../helpers/requireAll';
import { TmuxSession } from '../helpers/tmux';

let server: MockModelServer;
let dirs: CliDirs;
let env: NodeJS.ProcessEnv;
let sessionId: string;

beforeAll(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
  server.push({ text: 'Remembered: the answer is 42.' });
  const r = await runJarvis(['-p', 'remember the number 42'], { env, cwd: dirs.cwd });
  expect(r.code).toBe(0);
  const root = join(dirs.home, 'sessions');
  const [key] = readdirSync(root);
  [sessionId] = readdirSync(join(root, key));
  mkdirSync(join(dirs.home, 'logs'), { recursive: true });
  writeFileSync(join(dirs.home, 'logs', 'jarvis-code.log'), 'a global log line\n');
});
afterAll(async () => {
  await server.close();
});

const zipsIn = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.zip'));

describe('jarvis export', () => {
  it('without an id and without a terminal, refuses unless -y is given', async () => {
    const r = await runJarvis(['export'], { env, cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(sessionId);
    expect(r.stderr).toMatch(/Confirm with -y, or pass the session id/);
    expect(zipsIn(dirs.cwd)).toEqual([]);
  });

  it('-y exports the latest session of this folder with the global log, under a timestamped name', async () => {
    const r = await runJarvis(['export', '-y'], { env, cwd: dirs.cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [name] = zipsIn(dirs.cwd);
    expect(name).toMatch(new RegExp(`^jarvis-session-${sessionId}-\\d{8}-\\d{6}\\.zip$`));
    expect(r.stdout).toContain(`Exported session ${sessionId} to ${join(dirs.cwd, name)}`);
    const files = await readZip(readFileSync(join(dirs.cwd, name)));
    const names = files.map((f) => f.name);
    expect(names).toContain(`${sessionId}/agents/main/wire.jsonl`);
    expect(names).toContain(`${sessionId}/state.json`);
    expect(files.find((f) => f.name === 'logs/jarvis-code.log')?.data.toString()).toBe('a global log line\n');
  });

  it('an id prefix, -o and --no-include-global-log; the archive resumes in another home', async () => {
    const out = join(dirs.cwd, 'out', 'session.zip');
    mkdirSync(dirname(out), { recursive: true });
    const r = await runJarvis(['export', sessionId.slice(0, 14), '-o', 'out/session.zip', '--no-include-global-log'], {
      env,
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    const files = await readZip(readFileSync(out));
    expect(files.map((f) => f.name)).not.toContain('logs/jarvis-code.log');

    const other = makeCliDirs();
    const sessionDir = sessionDirFor(other.home, dirs.cwd, sessionId);
    for (const f of files) {
      if (!f.name.startsWith(`${sessionId}/`)) continue;
      const target = join(sessionDir, f.name.slice(sessionId.length + 1));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.data);
    }
    server.push({ text: 'It was 42.' });
    const resumed = await runJarvis(['--session', sessionId, '-p', 'which number?'], {
      env: cliEnv(other, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(resumed.stderr).toContain(`resuming session ${sessionId}`);
    expect(resumed.code).toBe(0);
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
    expect(sent).toContain('remember the number 42');
    expect(sent).toContain('Remembered: the answer is 42.');
  });

  it('-o dir/ with a missing folder creates it and writes the archive inside, never a file named dir', async () => {
    const r = await runJarvis(['export', sessionId, '-o', 'exports/new/'], { env, cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    const folder = join(dirs.cwd, 'exports', 'new');
    expect(zipsIn(folder)).toHaveLength(1);
    expect(r.stdout).toContain(join(folder, zipsIn(folder)[0]));
  });

  it('-o into a folder that does not exist (no slash) is an error naming the fix; -o dir/ on a file too', async () => {
    const r = await runJarvis(['export', sessionId, '-o', 'missing/archive.zip'], { env, cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the folder ${join(dirs.cwd, 'missing')} does not exist`);
    expect(r.stderr).toContain('-o missing/archive.zip/');
    expect(existsSync(join(dirs.cwd, 'missing'))).toBe(false);
    writeFileSync(join(dirs.cwd, 'plain'), 'not a folder');
    const onFile = await runJarvis(['export', sessionId, '-o', 'plain/'], { env, cwd: dirs.cwd });
    expect(onFile.code).toBe(1);
    expect(onFile.stderr).toContain(`-o plain/ names a folder, but ${join(dirs.cwd, 'plain')} is a file`);
    expect(readFileSync(join(dirs.cwd, 'plain'), 'utf8')).toBe('not a folder');
  });

  it('an unknown id is an error that says what to do', async () => {
    const r = await runJarvis(['export', 'NOPE', '-y'], { env, cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no session "NOPE" was found/);
    expect(existsSync(join(dirs.cwd, 'NOPE'))).toBe(false);
  });
});

describe('export confirmation on a terminal', () => {
  // The built CLI on a real terminal (tmux): the question needs a TTY on stdin.
  async function exportOnTerminal(answer: string): Promise<string> {
    const command = [process.execPath, BIN, 'export', '-o', 'asked'];
    const tmux = new TmuxSession({ command, cwd: dirs.cwd, env: terminalEnv() });
    try {
      await tmux.waitFor('[y/N]');
      tmux.type(answer);
      tmux.keys('Enter');
      return await tmux.waitFor(/\[exit \d+\]/);
    } finally {
      tmux.close();
    }
  }
  const terminalEnv = () =>
    Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

  it('asks before exporting the latest session, and does nothing on no', async (ctx) => {
    if (!requireSystemPart('tmux', 'the export question needs a terminal')) return ctx.skip();
    const target = join(dirs.cwd, 'asked');
    mkdirSync(target);
    const no = await exportOnTerminal('n');
    expect(no).toMatch(new RegExp(`Export the latest session of this folder, ${sessionId}[\\s\\S]*\\[y/N\\]`));
    expect(no).toContain('[exit 1]');
    expect(zipsIn(target)).toEqual([]);
    expect(await exportOnTerminal('yes')).toContain('[exit 0]');
    expect(zipsIn(target)).toHaveLength(1);
  });
});
