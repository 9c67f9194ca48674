// `/remote` end to end (docs/remote.md): the built CLI's terminal UI in tmux shares its live session through the
// session server it starts, and a web client (HTTP + WebSocket, as the browser UI talks) watches it and answers it.
// An approval waits in both places: answered by the client, the terminal's panel closes and says who answered;
// answered in the terminal, the client sees `client_id: "tui"` and a late answer is refused. A prompt from the client
// runs in the terminal's session and shows there. The answers stream to the client as `message.delta` events, and a
// skill's `/name` sent by the client is expanded before it reaches the terminal's model. The QR code on the screen
// decodes to the address printed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { expectDescribed } from '../helpers/describedEvent';
import { decodeTextQr } from '../helpers/screenQr';
import { writeTwoModelConfig } from '../helpers/cli';
import { api, WsClient, type Served, type WsFrame } from '../helpers/serveProcess';
import type { RecordedRequest, ScriptedTurn } from '../helpers/mockModelServer';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const start = appsClosedAfterEach();

function lastUserText(req: RecordedRequest): string {
  const messages = req.body.messages as Array<{ role: string; content: unknown }>;
  if (messages.at(-1)!.role === 'tool') return '<tool>';
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
}

function turnFor(req: RecordedRequest): ScriptedTurn {
  const text = lastUserText(req);
  if (text === '<tool>') return { text: 'the file is written' };
  const file = /write (\w+\.txt)/.exec(text);
  if (file) return { toolCalls: [{ name: 'Write', arguments: { path: file[1], content: `${file[1]} body\n` } }] };
  // The skill's instructions (written below), not its `/name`: the server expanded it.
  if (text.includes('PHONE-SKILL-MARKER for v2.1')) return { text: 'the skill was read in full' };
  return { text: 'hello back to the browser' };
}

/** A user skill, as a user writes one (CRLF, a list-valued field). */
function writeSkill(home: string): void {
  const dir = join(home, 'skills', 'phone-notes');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'SKILL.md'),
    '---\r\nname: phone-notes\r\ndescription: Notes for the phone\r\narguments: [version]\r\n---\r\nWrite PHONE-SKILL-MARKER for $version.\r\n',
  );
}

/** The text a prompt's answer streamed as `message.delta` events, checked to name one message, the final one. */
function streamedText(frames: WsFrame[], sid: string, pid: string): string {
  const deltas = frames.filter(
    (f) => f.session_id === sid && f.type === 'message.delta' && f.payload.prompt_id === pid,
  );
  for (const d of deltas) {
    expect(d.seq).toBe(0);
    expectDescribed(d);
  }
  const ids = new Set(deltas.map((d) => d.payload.message_id));
  expect(ids.size).toBe(1);
  const final = frames.find(
    (f) => f.session_id === sid && f.type === 'message' && f.payload.message_id === deltas[0].payload.message_id,
  );
  expect(final?.payload.role).toBe('assistant');
  expect(frames.indexOf(deltas.at(-1)!)).toBeLessThan(frames.indexOf(final!));
  return deltas.map((d) => d.payload.delta).join('');
}

/** The screen's words, lines joined (notices wrap at the terminal's width). */
const flat = (screen: string) => screen.replace(/\s+/g, ' ');

describe.skipIf(!hasTmux)(
  '/remote: the terminal session from two places (tmux + HTTP/WS)',
  { timeout: 180_000 },
  () => {
    it('serves the live session; approvals are won by whoever answers first, both ways; web prompts run here', async () => {
      const home = tempDir('jarvis-remote-home-');
      const cwd = tempDir('jarvis-remote-cwd-');
      made.push(home, cwd);
      writeSkill(home);
      // Aliases the web's model list shows (the terminal talks to the JARVIS_MODEL_* model; nothing calls them).
      writeTwoModelConfig(home, 'http://127.0.0.1:9/v1');
      const app = await start({ home, cwd, script: turnFor });
      const { tmux } = app;

      // Refused before anything is bound: another machine could reach 0.0.0.0, and no password is set.
      send(app, '/remote --host 0.0.0.0 --port 0');
      await tmux.waitFor(/reachable from other machines: set\s+JARVIS_CODE_PASSWORD/);

      send(app, '/remote --port 0');
      const on = await tmux.waitFor(/Remote on: this session is served at (http:\/\/127\.0\.0\.1:\d+)/);
      const url = /Remote on: this session is served at (http:\/\/127\.0\.0\.1:\d+)/.exec(on)![1];
      expect(flat(on)).toContain('this machine only (loopback)');
      const qr = await tmux.waitFor(/▀/);
      const link = /Open (\S+) in a browser/.exec(flat(qr))?.[1];
      // The one-time login link (docs/web.md "Login"): its code rides in the fragment.
      expect(link).toMatch(new RegExp(`^${url}/#login=[A-Za-z0-9_-]{20,}$`));
      expect(decodeTextQr(qr)).toBe(link);

      const token = readFileSync(join(home, 'server.token'), 'utf8').trim();
      const served = { url, token, port: Number(new URL(url).port) } as Served;
      const sessions = await api<{ items: Array<{ session_id: string; open: boolean }> }>(
        served,
        'GET',
        '/api/v1/sessions',
      );
      const live = sessions.data.items.filter((s) => s.open);
      expect(live).toHaveLength(1);
      const sid = live[0].session_id;
      const web = await WsClient.connect(served, 'web:phone');
      expect((await web.request('subscribe', { session_ids: [sid] })).code).toBe(0);
      const ofSession = (check: (f: WsFrame) => boolean) => (f: WsFrame) => f.session_id === sid && check(f);
      // The models the terminal's /model offers, as the web UI's select reads them.
      const models = await api<{ items: Array<{ alias: string; model: string; current: boolean }> }>(
        served,
        'GET',
        `/api/v1/sessions/${sid}/models`,
      );
      expect(models.data.items.map((m) => [m.alias, m.model, m.current])).toEqual([
        ['JARVIS_MODEL', 'any', true],
        ['fast', 'fast-model-v1', false],
        ['deep', 'deep-model-v2', false],
      ]);

      // 1. Typed in the terminal, approved from the web: the panel closes and the terminal names the client.
      send(app, 'please write one.txt');
      await tmux.waitFor('Approval needed');
      const asked = await web.waitFor(
        ofSession((f) => f.type === 'event.approval.requested'),
        'the approval',
      );
      expect(asked.payload).toMatchObject({ tool: 'Write' });
      const started = web.frames.find(ofSession((f) => f.type === 'prompt.started'))!;
      expect(started.payload).toMatchObject({ source: 'tui', origin: 'user', text: 'please write one.txt' });
      expectDescribed(started);
      expectDescribed(web.frames.find(ofSession((f) => f.type === 'prompt.queued'))!);
      const aid = asked.payload.approval_id as string;
      const approved = await api(
        served,
        'POST',
        `/api/v1/sessions/${sid}/approvals/${aid}`,
        { decision: 'approved' },
        {
          'x-client-id': 'web:phone',
        },
      );
      expect(approved.code, approved.msg).toBe(0);
      await tmux.waitFor(/approved\s+from\s+the\s+browser\s+\(client\s+web:phone\)/);
      await tmux.waitForGone('Approval needed');
      await tmux.waitFor('the file is written');
      expect(readFileSync(join(cwd, 'one.txt'), 'utf8')).toBe('one.txt body\n');
      const firstDone = await web.waitFor(
        ofSession((f) => f.type === 'prompt.completed' && f.payload.prompt_id === started.payload.prompt_id),
        'the terminal prompt to complete',
      );
      expect(firstDone.payload).toMatchObject({ outcome: 'success' });
      // The terminal's own turn streams to the client, naming the terminal's prompt.
      expect(streamedText(web.frames, sid, started.payload.prompt_id as string)).toBe('the file is written');
      const messages = web
        .events(sid)
        .filter((f) => f.type === 'message')
        .map((f) => f.payload.type ?? f.payload.role);
      expect(messages).toEqual(['assistant', 'tool', 'assistant', 'result']);
      expect(web.events(sid).find((f) => f.type === 'event.approval.resolved')!.payload).toEqual({
        approval_id: aid,
        resolution: 'approved',
        client_id: 'web:phone',
      });

      // 2. Approved in the terminal: the web sees client "tui", and its late answer is refused.
      send(app, 'please write two.txt');
      await tmux.waitFor('Approval needed');
      const asked2 = await web.waitFor(
        ofSession((f) => f.type === 'event.approval.requested' && f.payload.approval_id !== aid),
        'the second approval',
      );
      const aid2 = asked2.payload.approval_id as string;
      tmux.keys('1');
      const resolved2 = await web.waitFor(
        ofSession((f) => f.type === 'event.approval.resolved' && f.payload.approval_id === aid2),
        'the terminal answer',
      );
      expect(resolved2.payload).toEqual({ approval_id: aid2, resolution: 'approved', client_id: 'tui' });
      const late = await api(
        served,
        'POST',
        `/api/v1/sessions/${sid}/approvals/${aid2}`,
        { decision: 'rejected' },
        {
          'x-client-id': 'web:phone',
        },
      );
      expect(late.code).toBe(40902);
      await web.waitFor(
        ofSession((f) => f.type === 'message' && f.payload.type === 'result' && f.seq! > resolved2.seq!),
        'the second result',
      );
      expect(readFileSync(join(cwd, 'two.txt'), 'utf8')).toBe('two.txt body\n');

      /** A prompt sent by the web client, to its successful end; its id. */
      const fromWeb = async (text: string): Promise<string> => {
        const prompt = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, {
          content: [{ type: 'text', text }],
        });
        expect(prompt.code, prompt.msg).toBe(0);
        const id = prompt.data.prompt_id as string;
        const done = await web.waitFor(
          ofSession((f) => f.type === 'prompt.completed' && f.payload.prompt_id === id),
          `the web prompt "${text}" to complete`,
        );
        expect(done.payload).toMatchObject({ outcome: 'success', status: 'completed' });
        return id;
      };

      // 3. A prompt from the web runs in the terminal's session and shows in the terminal.
      const pid = await fromWeb('greetings from the phone');
      const screen = await tmux.waitFor('hello back to the browser');
      expect(screen).toContain('greetings from the phone');
      expect(streamedText(web.frames, sid, pid)).toBe('hello back to the browser');

      // 4. A skill named by the web client: listed from the terminal's session, expanded by the server, and the
      // terminal's model gets the skill's instructions (turnFor answers them) while the terminal shows what was sent.
      const commands = await api<{ items: Array<{ name: string; source: string; argument_hint: string | null }> }>(
        served,
        'GET',
        `/api/v1/sessions/${sid}/commands`,
      );
      expect(commands.code, commands.msg).toBe(0);
      expect(commands.data.items.find((c) => c.name === 'phone-notes')).toMatchObject({ source: 'skill' });
      const skillPid = await fromWeb('/phone-notes v2.1');
      expect(streamedText(web.frames, sid, skillPid)).toBe('the skill was read in full');
      const skillScreen = await tmux.waitFor('the skill was read in full');
      expect(skillScreen).toContain('/phone-notes v2.1');
      // Those were the web's prompts, not ones the terminal typed.
      expect(web.events(sid).filter((f) => f.type === 'prompt.started' && f.payload.source === 'tui')).toHaveLength(2);

      send(app, '/remote status');
      await tmux.waitFor(
        /Remote on at http:\/\/127\.0\.0\.1:\d+ — exposed on 127\.0\.0\.1:\d+,\s+this\s+machine\s+only/,
      );
      await tmux.waitFor('1 web connection');

      send(app, '/remote off');
      await tmux.waitFor('Remote off: the server stopped; the session goes on here.');
      await expect(fetch(`${url}/api/v1/healthz`)).rejects.toThrow();
      // The session goes on in the terminal.
      send(app, 'still here?');
      await tmux.waitFor(/> still here\?\s+hello back to the browser/);
    });
  },
);

describe.skipIf(!hasTmux)(
  '/remote on another address: a password, and the ban (tmux + HTTP)',
  { timeout: 120_000 },
  () => {
    it('binds 0.0.0.0 only with JARVIS_CODE_PASSWORD, says it is reachable, and bans an address that guesses', async () => {
      const home = tempDir('jarvis-remote-home-');
      const cwd = tempDir('jarvis-remote-cwd-');
      made.push(home, cwd);
      const app = await start({ home, cwd, script: turnFor, env: { JARVIS_CODE_PASSWORD: 'correct horse battery' } });
      send(app, '/remote --host 0.0.0.0 --port 0');
      const on = flat(await app.tmux.waitFor(/Remote on: this session is served at/));
      const port = /exposed on 0\.0\.0\.0:(\d+), reachable from other machines \(password required\)/.exec(on)?.[1];
      expect(port, on).toBeDefined();
      const url = `http://127.0.0.1:${port}`;
      // The link for a phone names this machine's outside address (a wildcard bind's own URL says 127.0.0.1).
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal);
      const link = /Open (\S+) in a browser/.exec(on)?.[1];
      expect(link).toMatch(
        new RegExp(`^http://${(outside?.address ?? '127.0.0.1').replace(/\./g, '\\.')}:${port}/#login=`),
      );
      const basic = (password: string) => ({
        authorization: `Basic ${Buffer.from(`me:${password}`).toString('base64')}`,
      });
      const meta = await fetch(`${url}/api/v1/meta`, { headers: basic('correct horse battery') });
      expect(((await meta.json()) as { code: number }).code).toBe(0);
      // SPEC §10.2: ten failed credentials within a minute ban the address, the right token included.
      for (let i = 0; i < 10; i++)
        expect((await fetch(`${url}/api/v1/meta`, { headers: basic(`guess ${i}`) })).status).toBe(401);
      const token = readFileSync(join(home, 'server.token'), 'utf8').trim();
      const banned = await fetch(`${url}/api/v1/meta`, { headers: { authorization: `Bearer ${token}` } });
      expect(banned.status).toBe(429);
      expect(((await banned.json()) as { code: number }).code).toBe(42901);
      send(app, '/remote status');
      await app.tmux.waitFor(/reachable\s+from\s+other\s+machines\s+\(password\s+required\);\s+0\s+web\s+connections/);
      // Quitting with the server up stops it with the rest.
      send(app, '/exit');
      await app.tmux.waitFor('[exit 0]');
      await expect(fetch(`${url}/api/v1/healthz`)).rejects.toThrow();
    });
  },
);
