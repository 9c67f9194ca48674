// The computer-use desktop and its X11 client against a real X server (Xvfb): the Xauthority cookie, screenshots
// whose window crops are the very pixels of the whole screen's, windows and focus without a window manager, the
// clipboard (small, and large enough for the INCR protocol), the marker letting clicks through, the keyboard map
// left as it was, and a server that goes away (docs/computer-use.md).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Desktop } from '../../src/plugins/jarvis-computer-use/desktop';
import { X11Connection } from '../../src/platform/x11/x11Connection';
import { getGeometry, getKeyboardMapping, getWindowAttributes, queryTree } from '../../src/platform/x11/x11Requests';
import { toScreen, toSpace } from '../../src/plugins/jarvis-computer-use/screenSpace';
import { waitUntil } from '../helpers/cli';
import { requireSystemPart } from '../helpers/requireAll';
import { startVirtualDisplay, type VirtualDisplay } from '../helpers/virtualDisplay';

const PROBE_APP = resolve(__dirname, '../fixtures/computer-use/probe_app.py');
const runs =
  requireSystemPart('Xvfb', 'the X11 client is tested against a real X server') &&
  requireSystemPart('python3', 'a Tk application owns windows and the clipboard') &&
  requireSystemPart('xdotool', "another program's click goes through the marker");

async function decode(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** An Xauthority file with one wildcard MIT-MAGIC-COOKIE-1 entry, as `xauth add` writes it. */
function cookieFile(): string {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
  const file = join(mkdtempSync(join(tmpdir(), 'jarvis-xauth-')), 'Xauthority');
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from([0xff, 0xff]),
      field(Buffer.alloc(0)),
      field(Buffer.from('')),
      field(Buffer.from('MIT-MAGIC-COOKIE-1')),
      field(randomBytes(16)),
    ]),
  );
  return file;
}

describe.runIf(runs)('the desktop on a real X server', { timeout: 120_000 }, () => {
  let display: VirtualDisplay;
  let desktop: Desktop;
  /** Its marker stays until closed, so the test can look at it. */
  let lingering: Desktop;
  let events = '';
  const auth = cookieFile();

  beforeAll(async () => {
    // No window manager: windows are listed and focused the way a bare X server allows.
    display = await startVirtualDisplay({ width: 1366, height: 768, windowManager: false, auth });
    const app = display.launch('python3', [PROBE_APP]);
    app.stdout!.on('data', (d) => (events += d));
    await display.waitForWindow(/Jarvis Probe/);
    await waitUntil(() => events.includes('ready'), 20_000, 'the probe application');
    desktop = new Desktop({ HOME: '/nonexistent', ...display.env });
    lingering = new Desktop({ HOME: '/nonexistent', ...display.env }, { markerLingerMs: 120_000 });
  });
  afterAll(async () => {
    await desktop?.close();
    await lingering?.close();
    await display?.close();
  });

  it('connects with the Xauthority cookie, and says what to do without it', async () => {
    await expect(
      X11Connection.open({ DISPLAY: display.display, XAUTHORITY: '/nonexistent/Xauthority' }),
    ).rejects.toThrow(/refused the connection: .*no cookie for it was found in the Xauthority file; set XAUTHORITY/);
    const c = await X11Connection.open({ DISPLAY: display.display, XAUTHORITY: auth });
    expect(c.screen.width).toBe(1366);
    c.close();
  });

  it('lists and focuses windows without a window manager', async () => {
    const { space, windows } = await desktop.windows();
    expect([space.width, space.height]).toEqual([1280, 720]);
    const probe = windows.find((w) => w.title === 'Jarvis Probe')!;
    expect(probe).toMatchObject({ app: 'Tk', minimized: false });
    expect(await desktop.focus(probe.id)).toBe(true);
    expect((await desktop.windows()).windows.find((w) => w.id === probe.id)?.focused).toBe(true);
    await expect(desktop.focus(0x7fffffff)).rejects.toThrow('there is no window 0x7fffffff');
  });

  it("draws a window's screenshot with exactly the pixels of the whole screen's", async () => {
    const whole = await desktop.screenshot(undefined);
    const probe = (await desktop.windows()).windows.find((w) => w.title === 'Jarvis Probe')!;
    const part = await desktop.screenshot(probe.id);
    expect(part.rect).toMatchObject({ x: probe.x, y: probe.y, width: probe.width, height: probe.height });
    const [a, b] = [await decode(whole.png), await decode(part.png)];
    expect([a.width, a.height]).toEqual([1280, 720]);
    for (let y = 0; y < b.height; y++) {
      const row = b.data.subarray(y * b.width * 3, (y + 1) * b.width * 3);
      const start = ((part.rect.y + y) * a.width + part.rect.x) * 3;
      expect(Buffer.compare(row, a.data.subarray(start, start + b.width * 3)), `row ${y}`).toBe(0);
    }
    // Inside a flat area the average is the colour itself: the magenta button is there, exactly.
    let magenta = 0;
    for (let i = 0; i < b.data.length; i += 3)
      if (b.data[i] === 255 && b.data[i + 1] === 0 && b.data[i + 2] === 255) magenta++;
    expect(magenta).toBeGreaterThan(100);
  });

  it('reads the clipboard: a short text, and one large enough to come in pieces (INCR)', async () => {
    // `text` is a Python expression.
    const owner = (text: string) =>
      display.launch('python3', [
        '-c',
        `import tkinter as tk\nr = tk.Tk()\nr.withdraw()\nr.clipboard_clear()\nr.clipboard_append(${text})\nr.update()\nprint("owned", flush=True)\nr.mainloop()`,
      ]);
    const wait = async (p: ReturnType<typeof owner>) => {
      let out = '';
      p.stdout!.on('data', (d) => (out += d));
      await waitUntil(() => out.includes('owned'), 20_000, 'the clipboard owner');
    };
    const short = owner(JSON.stringify('Olá — ação ✓'));
    await wait(short);
    expect(await desktop.clipboard('CLIPBOARD', 100_000)).toEqual({ text: 'Olá — ação ✓', truncated: false });
    short.kill();
    const big = 'x'.repeat(700_000);
    const large = owner('"x" * 700000');
    await wait(large);
    const got = await desktop.clipboard('CLIPBOARD', 1_000_000);
    expect(got.truncated).toBe(false);
    expect(got.text?.length).toBe(big.length);
    const cut = await desktop.clipboard('CLIPBOARD', 100_000);
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.text?.length).toBe(100_000);
    large.kill();
  });

  it('lets a click through its marker to the application below it', async () => {
    const { space, windows } = await desktop.windows();
    const probe = windows.find((w) => w.title === 'Jarvis Probe')!;
    const shot = await decode((await desktop.screenshot(probe.id)).png);
    // The magenta button's middle, in screen pixels.
    let [sx, sy, n] = [0, 0, 0];
    for (let y = 0; y < shot.height; y++)
      for (let x = 0; x < shot.width; x++) {
        const at = 3 * (y * shot.width + x);
        if (shot.data[at] === 255 && shot.data[at + 1] === 0 && shot.data[at + 2] === 255)
          [sx, sy, n] = [sx + x, sy + y, n + 1];
      }
    const beta = toScreen(space, probe.x + Math.round(sx / n), probe.y + Math.round(sy / n));
    // The marker shows just below and right of the pointer: point so that it covers the button's middle.
    const aim = toSpace(space, beta.x - 16, beta.y - 16);
    await lingering.move(aim.x, aim.y);
    // Screenshots do not draw the pointer; they say where it is, in the same space.
    expect((await desktop.screenshot(undefined)).pointer).toEqual(aim);
    const c = await X11Connection.open(display.env);
    const markers = [];
    for (const w of (await queryTree(c, c.screen.root)).children) {
      const a = await getWindowAttributes(c, w);
      const g = await getGeometry(c, w);
      if (a.viewable && a.overrideRedirect && g.width === 12) markers.push(g);
    }
    c.close();
    expect(markers).toHaveLength(1);
    expect(beta.x).toBeGreaterThanOrEqual(markers[0].x);
    expect(beta.x).toBeLessThan(markers[0].x + 14);
    expect(beta.y).toBeGreaterThanOrEqual(markers[0].y);
    expect(beta.y).toBeLessThan(markers[0].y + 14);
    // Another program's click (the user's) lands on the button, not on the marker.
    execFileSync('xdotool', ['mousemove', String(beta.x), String(beta.y), 'click', '1'], {
      env: { ...process.env, ...display.env },
    });
    await waitUntil(() => events.includes('clicked Beta'), 10_000, 'the click to reach the button');
  });

  it('types characters the keyboard map lacks, and leaves the map as it was', async () => {
    const c = await X11Connection.open(display.env);
    const map = async () => [
      ...(await getKeyboardMapping(c, c.setup.minKeycode, c.setup.maxKeycode - c.setup.minKeycode + 1)).keysyms,
    ];
    const before = await map();
    const probe = (await desktop.windows()).windows.find((w) => w.title === 'Jarvis Probe')!;
    await desktop.focus(probe.id);
    await desktop.type('ŁÓDŹ→中文');
    await waitUntil(() => events.includes('ŁÓDŹ→中文'), 10_000, 'the text in the application');
    expect(await map()).not.toEqual(before);
    await desktop.close();
    expect(await map()).toEqual(before);
    c.close();
  });

  it('reports an X server that went away, and connects again to the next one', async () => {
    const lone = await startVirtualDisplay({ windowManager: false });
    const other = new Desktop({ HOME: '/nonexistent', ...lone.env });
    expect((await other.windows()).space.width).toBe(1280);
    await lone.close();
    await expect(other.windows()).rejects.toThrow(`the X server on ${lone.display} closed the connection`);
    await expect(other.windows()).rejects.toThrow(`cannot connect to the X server of DISPLAY=${lone.display}`);
    await other.close();
  });
});
