// Whether computer use can work here, and what is missing if not (docs/computer-use.md, "Set-up per desktop"): shown
// by `jarvis doctor` and after the jarvis-computer-use plugin is installed. Computer use speaks the X protocol
// itself, so a desktop needs no extra package; what it needs is an X11 display it may connect to, with the XTEST
// extension. Wayland without XWayland is not supported yet.
import { X11Connection } from './x11Connection';
import { queryExtension, xtestVersion } from './x11Requests';

export interface DesktopReadiness {
  ok: boolean;
  lines: string[];
}

const XWAYLAND_PACKAGES = 'Debian/Ubuntu: xwayland; Fedora: xorg-x11-server-Xwayland; Arch: xorg-xwayland';
const XVFB_PACKAGES = 'Debian/Ubuntu: xvfb; Fedora: xorg-x11-server-Xvfb; Arch: xorg-server-xvfb';

/** Why this session cannot be driven before any connection is tried (undefined: try X11). */
export function unsupportedSession(env: NodeJS.ProcessEnv): string | undefined {
  if (env.DISPLAY?.trim()) return undefined;
  if (env.WAYLAND_DISPLAY?.trim()) {
    return (
      'this is a Wayland session without XWayland (WAYLAND_DISPLAY is set, DISPLAY is not). Computer use on Wayland is ' +
      'not supported yet: Wayland lets no program read the screen or send input to other applications by itself — that ' +
      'goes through the desktop portal (RemoteDesktop and ScreenCast), which Jarvis does not speak yet. Start an X11 ' +
      'session, or enable XWayland so DISPLAY is set (then X11 applications can be driven)'
    );
  }
  return 'no display is set (neither DISPLAY nor WAYLAND_DISPLAY): run Jarvis inside a desktop session';
}

export async function probeDesktop(env: NodeJS.ProcessEnv, timeoutMs = 3_000): Promise<DesktopReadiness> {
  const why = unsupportedSession(env);
  if (why) {
    const packages = env.WAYLAND_DISPLAY?.trim()
      ? `XWayland (${XWAYLAND_PACKAGES})`
      : `an X server; without a desktop, Xvfb (${XVFB_PACKAGES}) with a small window manager such as openbox`;
    return { ok: false, lines: [`Cannot work here: ${why}.`, `Needs ${packages}.`] };
  }
  let c: X11Connection;
  try {
    c = await X11Connection.open(env, { timeoutMs });
  } catch (e) {
    return { ok: false, lines: [`Cannot connect: ${(e as Error).message}.`] };
  }
  try {
    const screen = c.screen;
    const lines = [
      `X11 display ${c.address.name} (${c.setup.vendor}): screen ${screen.width}×${screen.height}, depth ${screen.rootDepth}.`,
    ];
    const xtest = await queryExtension(c, 'XTEST');
    if (!xtest.present)
      return { ok: false, lines: [...lines, 'The X server has no XTEST extension, which input is sent through.'] };
    lines.push(`Input through XTEST ${await xtestVersion(c, xtest.majorOpcode)}.`);
    const bpp = c.setup.formats.find((f) => f.depth === screen.rootDepth)?.bitsPerPixel;
    if (bpp !== 32 && bpp !== 16)
      return {
        ok: false,
        lines: [...lines, `Screenshots of a ${bpp}-bit screen are not supported (16- and 32-bit are).`],
      };
    const shape = await queryExtension(c, 'SHAPE');
    lines.push(
      shape.present
        ? 'The on-screen marker can be shown (SHAPE).'
        : 'No on-screen marker: the X server has no SHAPE extension.',
    );
    if (env.WAYLAND_DISPLAY?.trim() || env.XDG_SESSION_TYPE === 'wayland')
      lines.push('Wayland session through XWayland: only X11 applications can be seen and driven.');
    lines.push('No extra package needed: computer use speaks the X protocol itself.');
    return { ok: true, lines };
  } catch (e) {
    return { ok: false, lines: [`The X server did not answer as expected: ${(e as Error).message}.`] };
  } finally {
    c.close();
  }
}
