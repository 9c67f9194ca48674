// What a browser's prompt box needs from `jarvis serve` (docs/server.md "Files", "Commands and skills", "Prompts with
// images and files"), on the built CLI against the scripted model: `@` completion lists the session folder's files
// as the TUI does (ignore files, `.git` left out); the commands list has skills and command files with their hints;
// a `/name` prompt runs the skill or command, the TUI's own commands and unknown names are refused; a pasted image
// reaches the model and a bad one is refused with what is wrong; an `@path` mention attaches the file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { EVENT_SCHEMAS } from '../../src/server/eventSchemas';
import {
  api,
  startServe,
  stopServed,
  watchedSession,
  WsClient,
  type Served,
  type WsFrame,
} from '../helpers/serveProcess';

const validateNotice = new Ajv2020({ strict: false }).compile(EVENT_SCHEMAS['prompt.notice']);

let model: MockModelServer;
let dirs: CliDirs;
let served: Served;
let sid: string;
let watcher: WsClient;

// A 2×2 PNG (red, green / blue, white), as a browser's clipboard gives it.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAAMIM/////w8AH+4F+7C4l8kAAAAASUVORK5CYII=';

const completed = (pid: string) => (f: WsFrame) =>
  f.session_id === sid && f.type === 'prompt.completed' && f.payload.prompt_id === pid;

async function send(content: unknown[]): Promise<{ code: number; msg: string; pid: string }> {
  const r = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, { content });
  return { code: r.code, msg: r.msg, pid: (r.data as { prompt_id?: string } | null)?.prompt_id ?? '' };
}

/** Sends a prompt, waits for its end, and returns what the model was sent last. */
async function run(content: unknown[]): Promise<string> {
  const before = model.requests.length;
  const r = await send(content);
  expect(r.code, r.msg).toBe(0);
  await watcher.waitFor(completed(r.pid), 'the prompt to end');
  expect(model.requests.length).toBeGreaterThan(before);
  return JSON.stringify(model.requests.at(-1)!.body);
}

beforeAll(async () => {
  model = await startMockModelServer({ script: () => ({ text: 'noted' }) });
  dirs = makeCliDirs();
  const w = (path: string, text: string) => {
    mkdirSync(join(dirs.cwd, path, '..'), { recursive: true });
    writeFileSync(join(dirs.cwd, path), text);
  };
  mkdirSync(join(dirs.cwd, '.git'));
  w('.git/config', '[core]\n');
  w('.gitignore', 'build/\n*.log\n');
  w('build/out.js', 'compiled\n');
  w('debug.log', 'noise\n');
  w('src/app.ts', 'export const app = 1;\n');
  w('src/apply.ts', 'export const apply = 2;\n');
  w('docs/mapping.md', '# Mapping\n');
  w('README.md', 'The README says: ZEBRA-42.\n');
  w(
    '.jarvis-code/skills/release-notes/SKILL.md',
    '---\r\nname: release-notes\r\ndescription: Writes release notes from the git log\r\narguments: [version]\r\n---\r\nRead the log for $version and write RELEASE-NOTES-MARKER.\r\n',
  );
  w(
    '.claude/commands/review.md',
    '---\ndescription: Review the changes\nargument-hint: <branch>\n---\nReview the branch $1 with care (REVIEW-MARKER).\n',
  );
  served = await startServe(dirs, mockModelEnv(model.baseUrlFor('openai')));
  ({ sid, watcher } = await watchedSession(served));
}, 60_000);

afterAll(() => stopServed(watcher, served, model));

describe('jarvis serve prompt input', () => {
  it('completes @ paths as the terminal UI does: ranked, ignore files honoured, .git left out', async () => {
    const all = await api<{ items: Array<{ path: string; kind: string }>; has_more: boolean }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/files?limit=50`,
    );
    expect(all.code, all.msg).toBe(0);
    const paths = all.data.items.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['src/app.ts', 'src/apply.ts', 'README.md', 'src/', 'docs/']));
    expect(paths.some((p) => p.startsWith('build') || p.endsWith('.log') || p.startsWith('.git/'))).toBe(false);
    expect(all.data.items.find((i) => i.path === 'src/')!.kind).toBe('folder');

    const app = await api<{ items: Array<{ path: string }>; has_more: boolean }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/files?query=app&limit=2`,
    );
    // A prefix of the file name ranks before a match elsewhere in the path (docs/mapping.md).
    expect(app.data.items.map((i) => i.path).sort()).toEqual(['src/app.ts', 'src/apply.ts']);
    expect(app.data.has_more).toBe(true);

    const bad = await api(served, 'GET', `/api/v1/sessions/${sid}/files?limit=500`);
    expect(bad.code).toBe(40001);
  }, 30_000);

  it('lists the skills and command files a prompt may start with, with their argument hints', async () => {
    const r = await api<{ items: Array<Record<string, unknown>> }>(served, 'GET', `/api/v1/sessions/${sid}/commands`);
    expect(r.code, r.msg).toBe(0);
    expect(r.data.items).toContainEqual({
      name: 'release-notes',
      description: 'Writes release notes from the git log',
      argument_hint: '<version>',
      source: 'skill',
    });
    expect(r.data.items).toContainEqual({
      name: 'review',
      description: 'Review the changes',
      argument_hint: '<branch>',
      source: 'user',
    });
  }, 30_000);

  it('runs /skill and command prompts as the TUI does, and refuses TUI commands and unknown names', async () => {
    const skill = await run([{ type: 'text', text: '/release-notes 2.0' }]);
    expect(skill).toContain('RELEASE-NOTES-MARKER');
    expect(skill).toContain('2.0');
    const command = await run([{ type: 'text', text: '/review feature-x' }]);
    expect(command).toContain('REVIEW-MARKER');
    expect(command).toContain('feature-x');

    const before = model.requests.length;
    const tui = await send([{ type: 'text', text: '/compact' }]);
    expect(tui.code).toBe(40415);
    expect(tui.msg).toMatch(/command of the terminal UI/);
    const unknown = await send([{ type: 'text', text: '/relase-notes 2.0' }]);
    expect(unknown.code).toBe(40415);
    expect(unknown.msg).toContain('release-notes');
    // A path is text, not a command.
    await run([{ type: 'text', text: '/usr/bin/env is where env lives' }]);
    expect(model.requests.length).toBe(before + 1);
  }, 60_000);

  it('sends a pasted image to the model, and refuses one whose bytes are not what it says', async () => {
    const sent = await run([
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image', media_type: 'image/png', data: PNG },
    ]);
    expect(sent).toContain('data:image/png;base64,');
    expect(sent).toContain('[image #1]');

    const wrongType = await send([{ type: 'image', media_type: 'image/jpeg', data: PNG }]);
    expect(wrongType.code).toBe(40001);
    expect(wrongType.msg).toMatch(/declared image\/jpeg but its bytes are image\/png/);
    const notBase64 = await send([{ type: 'image', media_type: 'image/png', data: `data:image/png;base64,${PNG}` }]);
    expect(notBase64.code).toBe(40001);
    expect(notBase64.msg).toMatch(/plain base64/);
    const script = Buffer.from('<svg onload="alert(1)"/>').toString('base64');
    const svg = await send([{ type: 'image', media_type: 'image/svg+xml', data: script }]);
    expect(svg.code).toBe(40001);
    const many = await send(Array.from({ length: 5 }, () => ({ type: 'image', media_type: 'image/png', data: PNG })));
    expect(many.code).toBe(40001);
    expect(many.msg).toMatch(/at most 4 images/);
  }, 60_000);

  it('attaches an @path mention; a file outside the folder is not attached and the notice says why', async () => {
    const sent = await run([{ type: 'text', text: 'summarise @README.md please' }]);
    expect(sent).toContain('ZEBRA-42');
    const outside = join(dirs.home, 'secret-notes.txt');
    writeFileSync(outside, 'OUTSIDE-MARKER\n');
    const r = await send([{ type: 'text', text: `look at @${outside}` }]);
    expect(r.code, r.msg).toBe(0);
    await watcher.waitFor(completed(r.pid), 'the prompt to end');
    expect(JSON.stringify(model.requests.at(-1)!.body)).not.toContain('OUTSIDE-MARKER');
    const notice = watcher.frames.find((f) => f.type === 'prompt.notice' && f.payload.prompt_id === r.pid);
    expect(notice?.payload.text).toMatch(/was not attached/);
    expect(validateNotice(notice!.payload), JSON.stringify(validateNotice.errors)).toBe(true);
  }, 60_000);
});
