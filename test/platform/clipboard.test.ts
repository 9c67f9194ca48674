// Reading the clipboard with the platform's tools. The tools here are small scripts on PATH that act
// as wl-paste and xclip do (the arguments they get decide what they print), so the real spawning,
// type negotiation and fallbacks run.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClipboard } from '../../src/platform/clipboard';
import { tempDir } from '../helpers/files';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** A folder with one script `name` that prints `types` for a type listing, the image file for an image type, `text` otherwise. */
function fakeTool(name: string, opts: { types: string; text?: string; listFlag: string }): string {
  const dir = tempDir('jarvis-clip-');
  const image = join(dir, 'clip.png');
  writeFileSync(image, PNG);
  const script = join(dir, name);
  writeFileSync(
    script,
    `#!/bin/sh
case "$*" in
  *${opts.listFlag}*) printf '%s\\n' ${JSON.stringify(opts.types)} | tr '|' '\\n' ;;
  *image/png*) cat ${JSON.stringify(image)} ;;
  *) printf '%s' ${JSON.stringify(opts.text ?? '')} ;;
esac
`,
  );
  chmodSync(script, 0o755);
  return dir;
}

describe('readClipboard', () => {
  it('Wayland: an image on the clipboard comes from wl-paste', async () => {
    const path = fakeTool('wl-paste', { types: 'image/png|text/plain', listFlag: '--list-types' });
    const got = await readClipboard({ platform: 'linux', env: { PATH: path, WAYLAND_DISPLAY: 'wayland-0' } });
    expect(got).toEqual({ kind: 'image', data: PNG, mediaType: 'image/png' });
  });

  it('X11: xclip offers text only, so the text is pasted', async () => {
    const path = fakeTool('xclip', { types: 'TARGETS|UTF8_STRING', text: 'hello clipboard', listFlag: 'TARGETS' });
    const got = await readClipboard({ platform: 'linux', env: { PATH: path, DISPLAY: ':0' } });
    expect(got).toEqual({ kind: 'text', text: 'hello clipboard' });
  });

  it('X11: an image comes from xclip -t image/png', async () => {
    const path = fakeTool('xclip', { types: 'TARGETS|image/png', listFlag: 'TARGETS' });
    expect(await readClipboard({ platform: 'linux', env: { PATH: path, DISPLAY: ':0' } })).toEqual({
      kind: 'image',
      data: PNG,
      mediaType: 'image/png',
    });
  });

  it('says which tool to install when none is there, and when there is no graphical session', async () => {
    const empty = tempDir('jarvis-clip-none-');
    const wayland = await readClipboard({ platform: 'linux', env: { PATH: empty, WAYLAND_DISPLAY: 'wayland-0' } });
    expect(wayland).toEqual({
      kind: 'unavailable',
      message: expect.stringContaining('wl-paste (package wl-clipboard) is not installed'),
    });
    const x11 = await readClipboard({ platform: 'linux', env: { PATH: empty, DISPLAY: ':0' } });
    expect(x11).toEqual({ kind: 'unavailable', message: expect.stringContaining('xclip is not installed') });
    const none = await readClipboard({ platform: 'linux', env: { PATH: empty } });
    expect(none).toEqual({ kind: 'unavailable', message: expect.stringContaining('no graphical session') });
  });

  it('a clipboard tool that hangs is given up on: Ctrl-V never blocks for long', async () => {
    const dir = tempDir('jarvis-clip-hang-');
    writeFileSync(join(dir, 'xclip'), '#!/bin/sh\nexec sleep 30\n');
    chmodSync(join(dir, 'xclip'), 0o755);
    const got = await readClipboard({ platform: 'linux', env: { PATH: dir, DISPLAY: ':0' }, timeoutMs: 200 });
    expect(got).toEqual({ kind: 'empty' });
  });
});
