// Computer use end to end (docs/computer-use.md): the jarvis-computer-use plugin installed with `jarvis plugin
// install`, run by `jarvis -p` with a scripted model, on a virtual X11 desktop (Xvfb + openbox, 1600×1000, so
// screenshots are scaled by 1.25) with real applications: Mousepad writes a paragraph and saves it through its
// GTK dialog; xterm runs a typed command; a small Tk application reports which widget a click landed on, a drag and a scroll.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cliEnv,
  collect,
  latestSessionDir,
  makeCliDirs,
  mockModelEnv,
  runJarvis,
  spawnJarvis,
  type CliDirs,
} from '../helpers/cli';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { hasVirtualDesktop, startVirtualDisplay, type VirtualDisplay } from '../helpers/virtualDisplay';

const PLUGIN = resolve(__dirname, '../../dist/plugins/jarvis-computer-use');
const PROBE_APP = resolve(__dirname, '../fixtures/computer-use/probe_app.py');
const T = 'mcp__plugin-jarvis-computer-use_desktop__';
const runs =
  requireSystemPart('Xvfb', 'computer use is tested on a virtual X11 desktop') &&
  requireSystemPart('openbox', 'GTK dialogs need a window manager') &&
  hasVirtualDesktop();

let model: MockModelServer;
let script: ((req: RecordedRequest, n: number) => ScriptedTurn) | undefined;
let step = 0;
beforeAll(async () => {
  model = await startMockModelServer({ script: (req) => (script ? script(req, step++) : { text: 'no script' }) });
});
afterAll(async () => model.close());

/** The text of the tool results in a request, in order. */
function toolTexts(req: RecordedRequest): string[] {
  return (req.body.messages as Array<{ role: string; content: unknown }>)
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

const lastToolText = (req: RecordedRequest) => toolTexts(req).at(-1) ?? '';
const call = (name: string, args: Record<string, unknown>) => ({ name: `${T}${name}`, arguments: args });

/** The last screenshot the model was sent, decoded. */
async function lastImage(req: RecordedRequest): Promise<{ data: Buffer; width: number; height: number }> {
  const all = [...JSON.stringify(req.body).matchAll(/data:image\/png;base64,([A-Za-z0-9+/=]+)/g)];
  expect(all.length).toBeGreaterThan(0);
  const { data, info } = await sharp(Buffer.from(all.at(-1)![1], 'base64'))
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(3);
  return { data, width: info.width, height: info.height };
}

/** The middle of the pixels of exactly this colour, in screenshot pixels. */
function centreOf(image: { data: Buffer; width: number; height: number }, rgb: [number, number, number]) {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++) {
      const at = 3 * (y * image.width + x);
      if (image.data[at] === rgb[0] && image.data[at + 1] === rgb[1] && image.data[at + 2] === rgb[2]) {
        [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
      }
    }
  expect(maxX, `colour ${rgb} in the screenshot`).toBeGreaterThanOrEqual(0);
  return { x: Math.floor((minX + maxX) / 2), y: Math.floor((minY + maxY) / 2) };
}

async function installed(desktop: VirtualDisplay): Promise<{ dirs: CliDirs; env: NodeJS.ProcessEnv }> {
  const dirs = makeCliDirs();
  const env = cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), ...desktop.env });
  const install = await runJarvis(['plugin', 'install', PLUGIN, '--tier', 'official'], { env, cwd: dirs.cwd });
  expect(install.code, install.stderr).toBe(0);
  // The install notice says what computer use needs, checked on this display.
  expect(install.stdout).toContain(`Computer use is ready on this desktop:\n  X11 display ${desktop.display}`);
  return { dirs, env };
}

function authorize(dirs: CliDirs, display: string): void {
  writeFileSync(
    join(dirs.home, 'config.toml'),
    `[[permission.rules]]\ndecision = "allow"\npattern = "ComputerUse(${display})"\n`,
  );
}

/** The plugin installed and authorized, and the probe application up: what it reports comes in `events()`. */
async function probeSession(desktop: VirtualDisplay) {
  const { dirs, env } = await installed(desktop);
  authorize(dirs, desktop.display);
  const app = desktop.launch('python3', [PROBE_APP]);
  let events = '';
  app.stdout!.on('data', (d) => (events += d));
  await desktop.waitForWindow(/Jarvis Probe/);
  await until(() => events.includes('ready'), 'the probe application', 20_000);
  return { dirs, env, events: () => events };
}

describe.runIf(runs)('computer use through jarvis -p on a virtual desktop', { timeout: 180_000 }, () => {
  it('writes a paragraph with non-ASCII characters in Mousepad and saves it through the dialog', async () => {
    const desktop = await startVirtualDisplay();
    try {
      const { dirs, env } = await installed(desktop);
      const appHome = join(dirs.home, 'mousepad-home');
      mkdirSync(appHome);
      desktop.launch('mousepad', [], { env: { HOME: appHome, XDG_CONFIG_HOME: join(appHome, '.config') } });
      await desktop.waitForWindow(/Mousepad/);

      // Without an authorization nobody can give in print mode, nothing is done.
      step = 0;
      script = (_req, n) => (n === 0 ? { toolCalls: [call('screenshot', {})] } : { text: 'stopped' });
      const refused = await runJarvis(['-p', 'look at my screen'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
      expect(refused.code, refused.stderr).toBe(0);
      expect(lastToolText(model.requests.at(-1)!)).toContain(
        `Computer use on display ${desktop.display} is not authorized for this session`,
      );
      expect(lastToolText(model.requests.at(-1)!)).toContain(`pattern = "ComputerUse(${desktop.display})"`);

      authorize(dirs, desktop.display);
      const note = join(dirs.cwd, 'nota.txt');
      const paragraph =
        'Relatório de teste: ação, coração e pão — naïve café, Grüße aus Köln, 東京, łódź, ñandú, €5 ✓.\nSegunda linha, sem acentos.';
      let returns = 0;
      const start = model.requests.length;
      step = 0;
      script = (req, n) => {
        const said = lastToolText(req);
        if (n === 0) return { toolCalls: [call('screenshot', {}), call('list_windows', {})] };
        if (n === 1) {
          const id = /^(0x[0-9a-f]+) {2}"[^"]*Mousepad"/m.exec(said)![1];
          return {
            toolCalls: [
              call('focus_window', { window: id }),
              call('type_text', { text: paragraph }),
              call('press_keys', { keys: ['ctrl+s'] }),
              call('wait', { seconds: 15, window_title: 'Save As' }),
            ],
          };
        }
        if (n === 2)
          return {
            toolCalls: [
              call('press_keys', { keys: ['ctrl+a'] }),
              call('type_text', { text: note }),
              call('screenshot', {}),
            ],
          };
        // The file chooser may take the first Return for its completion: press it until the title names the file.
        if (returns === 0 || said.includes('No window whose title contains')) {
          returns++;
          if (returns > 3) return { text: 'could not save' };
          return {
            toolCalls: [
              call('press_keys', { keys: ['Return'] }),
              call('wait', { seconds: 5, window_title: 'nota.txt - Mousepad' }),
            ],
          };
        }
        return { text: 'Saved.' };
      };
      const r = await runJarvis(['-p', 'write the report in Mousepad and save it as nota.txt'], {
        env,
        cwd: dirs.cwd,
        timeoutMs: 150_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Saved.');
      expect(readFileSync(note, 'utf8')).toBe(paragraph);

      // The model saw the screen as an image; the terminal said what each action did.
      const sent = model.requests.slice(start);
      expect(JSON.stringify(sent[1].body)).toMatch(/data:image\/png;base64,iVBORw0KGgo/);
      expect(toolTexts(sent[1]).join('\n')).toContain(
        `Whole screen: 1280×800 px. Display ${desktop.display}: screen 1600×1000, screenshot space 1280×800 (scale 1.25`,
      );
      expect(r.stderr).not.toContain('permission rule');
      expect(r.stderr).toMatch(new RegExp(`• (\\[\\d+\\] )?${T}type_text`));
      expect(r.stderr).toMatch(new RegExp(`⎿ (\\[\\d+\\] )?Typed ${[...paragraph].length} characters\\.`));
      // Screenshots are kept in the session's scratch folder, and the result names the file.
      const shots = readdirSync(join(latestSessionDir(dirs.home), 'scratch', 'screenshots'));
      expect(shots.length).toBe(2);
      expect(toolTexts(sent[1]).join('\n')).toMatch(
        /\[Screenshot saved as \S+\/screenshots\/main-\d+-\d+-\d+\.png \(1280×800, \d+ KB\)\]/,
      );
    } finally {
      await desktop.close();
    }
  });

  it('types a command into xterm and runs it with Return', async () => {
    const desktop = await startVirtualDisplay();
    try {
      const { dirs, env } = await installed(desktop);
      authorize(dirs, desktop.display);
      const out = join(dirs.cwd, 'from-xterm.txt');
      desktop.launch('xterm', ['-T', 'Jarvis Term', '-e', 'bash', '--norc', '--noprofile'], {
        env: { HOME: dirs.home },
      });
      await desktop.waitForWindow(/Jarvis Term/);
      step = 0;
      script = (req, n) => {
        if (n === 0) return { toolCalls: [call('list_windows', {})] };
        if (n === 1) {
          const id = /^(0x[0-9a-f]+) {2}"Jarvis Term"/m.exec(lastToolText(req))![1];
          const command = `echo typed in xterm > ${out}`;
          return {
            toolCalls: [
              call('focus_window', { window: id }),
              call('type_text', { text: command }),
              call('press_keys', { keys: ['Return'] }),
            ],
          };
        }
        return { text: 'ran it' };
      };
      const r = await runJarvis(['-p', 'run the echo in the terminal'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      await until(
        () => existsSync(out) && readFileSync(out, 'utf8').endsWith('\n'),
        'the shell in xterm to write the file',
      );
      expect(readFileSync(out, 'utf8')).toBe('typed in xterm\n');
    } finally {
      await desktop.close();
    }
  });

  it('clicks, drags and scrolls at points found in the scaled screenshot, as the application reports', async () => {
    const desktop = await startVirtualDisplay();
    try {
      const { dirs, env, events } = await probeSession(desktop);
      step = 0;
      // Two requests: the first takes the screenshot; the second, made from it, clicks, drags and scrolls.
      let image: Awaited<ReturnType<typeof lastImage>> | undefined;
      script = (req, n) => {
        if (n === 0) return { toolCalls: [call('screenshot', {})] };
        if (n === 1) {
          return {
            before: async () => {
              image = await lastImage(req);
            },
            text: 'I see the window.',
          };
        }
        return { text: 'done' };
      };
      const first = await runJarvis(['-p', 'look'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
      expect(first.code, first.stderr).toBe(0);
      expect(image!.width).toBe(1280);
      const beta = centreOf(image!, [0xff, 0x00, 0xff]);
      const handle = centreOf(image!, [0x00, 0x00, 0xff]);
      const target = centreOf(image!, [0xff, 0xff, 0x00]);
      const list = centreOf(image!, [0x00, 0xff, 0xff]);
      step = 0;
      script = (_req, n) =>
        n === 0
          ? {
              toolCalls: [
                call('click', beta),
                call('drag', { from: handle, to: target }),
                call('scroll', { ...list, direction: 'down', amount: 3 }),
              ],
            }
          : { text: 'done' };
      const r = await runJarvis(['-p', 'press Beta, drop the blue square on the yellow one, scroll the list'], {
        env,
        cwd: dirs.cwd,
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(0);
      await until(() => /scroll top=[1-9]/.test(events()) && events().includes('drag '), 'the application to report');
      expect(events()).toContain('clicked Beta');
      expect(events()).not.toMatch(/clicked (Alpha|Gamma)/);
      const drag = /drag \d+,\d+ -> \d+,\d+ motions=(\d+) dropped=(yes|no)/.exec(events())!;
      expect(drag[2]).toBe('yes');
      expect(Number(drag[1])).toBeGreaterThanOrEqual(4);
      expect(r.stderr).toMatch(/⎿ (\[\d+\] )?Clicked left at \(\d+, \d+\) \(screen \d+, \d+\)\./);
    } finally {
      await desktop.close();
    }
  });
});

describe.runIf(runs && requireSystemPart('xdotool', 'an independent keystroke marks the end of the typing'))(
  'Ctrl-C in print mode',
  { timeout: 120_000 },
  () => {
    it('stops a long typing in the middle: no character arrives after it', async () => {
      const desktop = await startVirtualDisplay();
      try {
        const { dirs, env, events } = await probeSession(desktop);
        const typed = () => [...events().matchAll(/^text (.*)$/gm)].at(-1)?.[1] ?? '';
        const long = 'klmnopqrst'.repeat(200);
        step = 0;
        script = (_req, n) => (n === 0 ? { toolCalls: [call('type_text', { text: long })] } : { text: 'typed' });
        const child = spawnJarvis(['-p', 'type a lot'], { env, cwd: dirs.cwd });
        const done = collect(child, 60_000);
        await until(() => typed().length >= 20, 'the typing to start', 30_000);
        child.kill('SIGINT');
        const r = await done;
        expect(r.code).toBe(130);
        execFileSync('xdotool', ['key', 'Z'], { env: { ...process.env, ...desktop.env } });
        await until(() => typed().endsWith('Z'), 'the marker keystroke');
        const final = typed().slice(0, -1);
        expect(final.length).toBeGreaterThanOrEqual(20);
        expect(final.length).toBeLessThan(long.length);
        expect(long.startsWith(final)).toBe(true);
      } finally {
        await desktop.close();
      }
    });
  },
);

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
