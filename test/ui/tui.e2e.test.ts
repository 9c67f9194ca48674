// The interactive UI end to end: the real binary in tmux against the mock model server.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/cli';
import { requireSystemPart } from '../helpers/requireAll';
import { tempDir, appsClosedAfterEach, send } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('interactive UI (tmux)', { timeout: 60_000 }, () => {
  it('streams the answer into the transcript and shows the footer', async () => {
    const app = await start({
      turns: [{ text: 'Hello **there**, streamed.\n\nSecond paragraph with `code`.', chunkDelayMs: 15 }],
    });
    await app.tmux.waitFor('manual · any');
    send(app, 'hi');
    await app.tmux.waitFor('Second paragraph with code.');
    // The footer's context share follows the turn's usage, which can be drawn a frame after the text.
    const screen = await app.tmux.waitFor(/context \d+%/);
    expect(screen).toContain('> hi');
    expect(screen).toContain('Hello there, streamed.');
    expect(screen).toContain('Second paragraph with code.');
    expect(app.server.requests).toHaveLength(1);
  });

  it('asks before a Write and applies it once approved', async () => {
    const app = await start({
      turns: [
        { toolCalls: [{ name: 'Write', arguments: { path: 'hello.txt', content: 'hello from the model\n' } }] },
        { text: 'The file is written.' },
      ],
    });
    send(app, 'write the file');
    const panel = await app.tmux.waitFor('Approval needed');
    expect(panel).toContain('Approve once');
    expect(panel).toContain('Reject with feedback');
    expect(panel).toContain('+ hello from the model');
    expect(existsSync(join(app.cwd, 'hello.txt'))).toBe(false);
    app.tmux.keys('Enter');
    await app.tmux.waitFor('The file is written.');
    expect(readFileSync(join(app.cwd, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
  });

  it('sends "reject with feedback" to the model', async () => {
    const app = await start({
      turns: [
        { toolCalls: [{ name: 'Write', arguments: { path: 'x.txt', content: 'x' } }] },
        { text: 'Understood, I will not write it.' },
      ],
    });
    send(app, 'write x');
    await app.tmux.waitFor('Approval needed');
    app.tmux.keys('4');
    await app.tmux.waitFor('Tell the model what to do instead');
    app.tmux.type('name it y.txt instead');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Understood, I will not write it.');
    expect(existsSync(join(app.cwd, 'x.txt'))).toBe(false);
    const second = JSON.stringify(app.server.requests[1].body);
    expect(second).toContain('The user rejected this call and said: name it y.txt instead');
  });

  it('interrupts a streaming answer at once with Esc', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const app = await start({ turns: [{ text: long, chunkDelayMs: 150 }, { text: 'after the interrupt' }] });
    send(app, 'talk for a while');
    await app.tmux.waitFor('word0');
    app.tmux.keys('Escape');
    await app.tmux.waitFor('Interrupted.');
    expect(app.tmux.screen()).not.toContain('word199');
    send(app, 'next');
    await app.tmux.waitFor('after the interrupt');
  });

  it("recalls this folder's history with ↑ (persisted across launches)", async () => {
    const home = tempDir('jarvis-ui-home-');
    const cwd = tempDir('jarvis-ui-cwd-');
    const first = await start({ home, cwd, turns: [{ text: 'ok one' }] });
    send(first, 'remember this prompt');
    await first.tmux.waitFor('ok one');
    first.tmux.keys('C-d');
    await first.tmux.waitFor('[exit 0]');
    expect(readdirHistory(home)).toContain('remember this prompt');
    const second = await start({ home, cwd, server: first.server, answerTrust: false });
    await second.tmux.waitFor('manual · any');
    second.tmux.keys('Up');
    await second.tmux.waitFor(/─+\n remember this prompt|remember this prompt\s*\n─/);
  });

  it('opens the / command menu, filters it, and runs a command', async () => {
    const app = await start({});
    app.tmux.type('/sta');
    const menu = await app.tmux.waitFor('/status');
    expect(menu).toContain('version, model, folder');
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('version, model, folder');
    app.tmux.keys('C-u');
    send(app, '/status');
    const status = await app.tmux.waitFor('Version');
    expect(status).toContain('Mode');
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('Version');
    send(app, '/yolo');
    await app.tmux.waitFor('YOLO ·');
  });

  it('completes paths with @ (git-aware, folders end with /)', async () => {
    const cwd = tempDir('jarvis-ui-cwd-');
    mkdirSync(join(cwd, 'src'));
    writeFileSync(join(cwd, 'src', 'main.ts'), 'export {};\n');
    writeFileSync(join(cwd, 'ignored.log'), 'x');
    writeFileSync(join(cwd, '.gitignore'), '*.log\n');
    execFileSync('git', ['init', '-q'], { cwd });
    const app = await start({ cwd });
    app.tmux.type('look at @mai');
    await app.tmux.waitFor('src/main.ts');
    app.tmux.keys('Tab');
    await app.tmux.waitFor('look at @src/main.ts');
    app.tmux.keys('C-u');
    app.tmux.type('@ign');
    await new Promise((r) => setTimeout(r, 600));
    expect(app.tmux.screen()).not.toContain('ignored.log');
    expect(app.tmux.screen()).not.toContain('.git/');
  });

  it('runs ! shell commands and gives their output to the next prompt', async () => {
    const app = await start({ turns: [{ text: 'I saw the output.' }] });
    send(app, '!echo shell-out-$((40+2))');
    await app.tmux.waitFor('shell-out-42');
    send(app, 'what did it print?');
    await app.tmux.waitFor('I saw the output.');
    const body = JSON.stringify(app.server.requests[0].body);
    expect(body).toContain('shell-out-42');
    expect(body).toContain('what did it print?');
  });

  it('a long ! output is cut in the context and saved whole in the session folder, where the agent may read it', async () => {
    const app = await start({ turns: [{ text: 'Seen.' }] });
    // Sent at once: the prompt waits for the command's end, so its output goes with it.
    send(app, '!seq 1 40000');
    send(app, 'how many lines?');
    await app.tmux.waitFor('Seen.');
    const body = JSON.stringify(app.server.requests[0].body);
    const saved = /saved at ([^ \]]+\.[a-z]+)/.exec(body)?.[1];
    expect(saved).toBeDefined();
    expect(saved!.startsWith(join(app.home, 'sessions'))).toBe(true);
    expect(saved).toContain('/shell-outputs/');
    expect(readFileSync(saved!, 'utf8').split('\n')).toHaveLength(40_001);
  });

  it('a ! command is stopped as a whole group by Esc, and nothing it started outlives the UI', async () => {
    const running = (marker: string) => {
      try {
        return execFileSync('pgrep', ['-af', marker], { encoding: 'utf8' }).trim();
      } catch {
        return ''; // pgrep exits 1 when nothing matches
      }
    };
    const app = await start({});
    send(app, '!sleep 987.651 & sleep 987.652; echo never');
    await app.tmux.waitFor('Running sleep');
    await waitUntil(() => running('sleep 987.65[12]').split('\n').length >= 2, 10_000, 'both sleeps to start');
    app.tmux.keys('Escape');
    await waitUntil(() => running('sleep 987.65[12]') === '', 10_000, 'the whole group to stop');
    await app.tmux.waitForGone('esc to interrupt');
    // SIGTERM is ignored here: leaving the UI still takes the group down (grace, then SIGKILL).
    send(app, '!trap "" TERM; sleep 987.653 & sleep 987.654; echo never');
    await waitUntil(() => running('sleep 987.65[34]').split('\n').length >= 2, 10_000, 'both sleeps to start');
    app.tmux.keys('C-d');
    await app.tmux.waitFor('[exit 0]', { timeoutMs: 15_000 });
    expect(running('sleep 987.65[34]')).toBe('');
  });

  it("shows a resumed session's history with --continue", async () => {
    const home = tempDir('jarvis-ui-home-');
    const cwd = tempDir('jarvis-ui-cwd-');
    const first = await start({ home, cwd, turns: [{ text: 'The answer is forty-two.' }] });
    send(first, 'what is the answer');
    await first.tmux.waitFor('The answer is forty-two.');
    first.tmux.keys('C-c');
    await first.tmux.waitFor('Press Ctrl-C again');
    first.tmux.keys('C-c');
    await first.tmux.waitFor('[exit 0]');
    const second = await start({ home, cwd, server: first.server, answerTrust: false, args: ['--continue'] });
    const screen = await second.tmux.waitFor('Resumed session');
    expect(screen).toContain('> what is the answer');
    expect(screen).toContain('The answer is forty-two.');
  });
});

function readdirHistory(home: string): string {
  const dir = join(home, 'user-history');
  return execFileSync('bash', ['-c', `cat ${JSON.stringify(dir)}/*.jsonl`], { encoding: 'utf8' });
}
