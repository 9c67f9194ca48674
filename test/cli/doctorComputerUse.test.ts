// `jarvis doctor` with the computer-use plugin installed says whether it can work here and what is missing
// (docs/computer-use.md, "Set-up per desktop"); without the plugin it says nothing about it.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';
import { requireSystemPart } from '../helpers/requireAll';
import { startVirtualDisplay, type VirtualDisplay } from '../helpers/virtualDisplay';

const PLUGIN = resolve(__dirname, '../../dist/plugins/jarvis-computer-use');

describe.runIf(requireSystemPart('Xvfb', 'doctor connects to a real X server'))(
  'jarvis doctor and computer use',
  { timeout: 60_000 },
  () => {
    let display: VirtualDisplay;
    beforeAll(async () => {
      display = await startVirtualDisplay({ windowManager: false });
    });
    afterAll(async () => display?.close());

    it('says nothing about it while the plugin is not installed', async () => {
      const dirs = makeCliDirs();
      const r = await runJarvis(['doctor'], { env: cliEnv(dirs, display.env), cwd: dirs.cwd });
      expect(r.stdout).not.toContain('Computer use');
    });

    it('checks the display: ready on X11, not supported on Wayland without XWayland, nothing without a display', async () => {
      const dirs = makeCliDirs();
      const installed = await runJarvis(['plugin', 'install', PLUGIN, '--tier', 'official'], {
        env: cliEnv(dirs),
        cwd: dirs.cwd,
      });
      expect(installed.code).toBe(0);
      expect(installed.stdout).toContain('Computer use cannot work in this session yet');

      const x11 = await runJarvis(['doctor'], { env: cliEnv(dirs, display.env), cwd: dirs.cwd });
      expect(x11.stdout).toContain(
        `Computer use: ok\n  X11 display ${display.display} (The X.Org Foundation): screen 1600×1000, depth 24.\n  Input through XTEST 2.2.`,
      );
      expect(x11.stdout).toContain('No extra package needed: computer use speaks the X protocol itself.');

      const env = cliEnv(dirs, { WAYLAND_DISPLAY: 'wayland-0' });
      delete env.DISPLAY;
      const wayland = await runJarvis(['doctor'], { env, cwd: dirs.cwd });
      expect(wayland.code).toBe(1);
      expect(wayland.stdout).toContain('Computer use: needs attention');
      expect(wayland.stdout).toContain(
        'Computer use on Wayland is not supported yet: Wayland lets no program read the screen or send input to other applications by itself',
      );
      expect(wayland.stdout).toContain(
        'Needs XWayland (Debian/Ubuntu: xwayland; Fedora: xorg-x11-server-Xwayland; Arch: xorg-xwayland).',
      );

      const gone = await runJarvis(['doctor'], { env: cliEnv(dirs, { DISPLAY: ':9999' }), cwd: dirs.cwd });
      expect(gone.stdout).toMatch(
        /Computer use: needs attention\n {2}Cannot connect: cannot connect to the X server of DISPLAY=:9999 \(\/tmp\/\.X11-unix\/X9999\)/,
      );
    });
  },
);
