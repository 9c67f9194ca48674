// Opens an address in the user's browser where there is one (macOS, or a Linux desktop session).
// Callers always print the address too: over SSH or in a container nothing opens, and that is fine.
import { spawn } from 'node:child_process';

export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.JARVIS_NO_BROWSER) return;
  const opener = process.platform === 'darwin' ? 'open' : env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : undefined;
  if (!opener) return;
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}
