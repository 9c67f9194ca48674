// docs/sessions.md, "From the shell": `jarvis sessions` lists this folder's sessions, `--all` every folder's,
// `sessions show <id>` one; an unknown `--session` id points to the command.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { journalPathOf } from '../../src/store/sessionStore';
import { cliEnv, latestSessionDir, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

let server: MockModelServer;
let dirs: CliDirs;
let env: NodeJS.ProcessEnv;
const other = () => join(dirs.cwd, '..', 'other');

beforeAll(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
  server.push({ text: 'one' }, { text: 'two' }, { text: 'elsewhere' });
  expect((await runJarvis(['-p', 'first question here'], { env, cwd: dirs.cwd })).code).toBe(0);
  expect((await runJarvis(['--continue', '-p', 'a follow-up'], { env, cwd: dirs.cwd })).code).toBe(0);
  mkdirSync(other(), { recursive: true });
  expect((await runJarvis(['-p', 'in another folder'], { env, cwd: other() })).code).toBe(0);
});
afterAll(async () => {
  await server.close();
});

describe('jarvis sessions', () => {
  it('--json lists the sessions of this folder with id, title, updated, turns and model', async () => {
    const r = await runJarvis(['sessions', '--json'], { env, cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ title: 'first question here', turns: 2, folder: dirs.cwd });
    expect(typeof list[0].id).toBe('string');
    expect(Date.parse(String(list[0].updated))).not.toBeNaN();
    // The JARVIS_MODEL_* variables' model is listed by its name.
    expect(list[0]).toMatchObject({ model: 'mock-model', modelId: 'mock-model' });
  });

  it('text and --all: one line per session, every folder with --all', async () => {
    const here = await runJarvis(['sessions'], { env, cwd: dirs.cwd });
    expect(here.stdout).toMatch(/^\w{26} {2}\S+ {2}2 turns {2}\S+ {2}first question here$/m);
    expect(here.stdout).not.toContain('in another folder');
    // The JARVIS_MODEL_* model is shown by its name, never as the variables or their internal alias.
    expect(here.stdout).toContain('  mock-model  first question here');
    expect(here.stdout).not.toContain('JARVIS_MODEL');
    const all = await runJarvis(['sessions', '--all', '--json'], { env, cwd: dirs.cwd });
    const titles = (JSON.parse(all.stdout) as Array<{ title: string }>).map((s) => s.title).sort();
    expect(titles).toEqual(['first question here', 'in another folder']);
  });

  it('show <prefix> gives the prompts; an unknown id says how to list them', async () => {
    const [s] = JSON.parse((await runJarvis(['sessions', '--json'], { env, cwd: dirs.cwd })).stdout) as Array<{
      id: string;
    }>;
    const shown = await runJarvis(['sessions', 'show', s.id.slice(0, 12)], { env, cwd: dirs.cwd });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`Session ${s.id}`);
    expect(shown.stdout).toContain('1. first question here');
    expect(shown.stdout).toContain('2. a follow-up');
    expect(shown.stdout).toContain('  model:   mock-model\n');
    const json = await runJarvis(['sessions', 'show', s.id, '--json'], { env, cwd: dirs.cwd });
    expect(JSON.parse(json.stdout)).toMatchObject({ id: s.id, turns: 2 });
    const missing = await runJarvis(['sessions', 'show', 'NOPE'], { env, cwd: dirs.cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('List them with jarvis sessions');
    const resume = await runJarvis(['--session', 'NOPE', '-p', 'x'], { env, cwd: dirs.cwd });
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain('List them with jarvis sessions (--all for every folder).');
  });

  it("a journal written before the model's name was kept names it from its requests, a configured model by its alias", async () => {
    const journal = journalPathOf(latestSessionDir(dirs.home));
    const text = readFileSync(journal, 'utf8');
    expect(text).toContain('"modelId":"mock-model"');
    try {
      writeFileSync(journal, text.replace(/,"modelId":"mock-model"/g, ''));
      const old = await runJarvis(['sessions', '--all'], { env, cwd: dirs.cwd });
      expect(old.stdout).toContain('  mock-model  ');
      expect(old.stdout).not.toContain('JARVIS_MODEL');
    } finally {
      writeFileSync(journal, text);
    }
    const home = join(dirs.home, '..', 'configured-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'config.toml'),
      [
        'default_model = "fast"',
        '[providers.local]',
        'type = "openai"',
        `base_url = "${server.baseUrlFor('openai')}"`,
        'api_key = "k"',
        '[models.fast]',
        'provider = "local"',
        'model = "provider-model-7"',
        'max_context_size = 100000',
      ].join('\n'),
    );
    const configured = cliEnv({ home, cwd: dirs.cwd });
    server.push({ text: 'configured' });
    expect((await runJarvis(['-p', 'on a configured model'], { env: configured, cwd: dirs.cwd })).code).toBe(0);
    const listed = JSON.parse((await runJarvis(['sessions', '--json'], { env: configured, cwd: dirs.cwd })).stdout);
    expect(listed[0]).toMatchObject({ model: 'fast', modelId: 'provider-model-7', title: 'on a configured model' });
  });

  it('a damaged line in the middle of a journal is said on stderr; the session is still listed', async () => {
    const journal = journalPathOf(latestSessionDir(dirs.home));
    const lines = readFileSync(journal, 'utf8').split('\n');
    writeFileSync(journal, [lines[0], '{"type": "tur', ...lines.slice(1)].join('\n'));
    const r = await runJarvis(['sessions', '--all', '--json'], { env, cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(journal);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(2);
  });
});
