// Reads the system clipboard for Ctrl-V in the input box (docs/ui.md "Pasting images"): an image when
// there is one, else its text. Terminals cannot pass images through, so the platform's own tools are
// asked: on Linux wl-paste (Wayland) then xclip (X11), under WSL PowerShell, on macOS pngpaste then
// osascript. What is missing is said in words, naming what to install.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { executableOnPath } from './ripgrep';

export type ClipboardContent =
  | { kind: 'image'; data: Buffer; mediaType: string }
  | { kind: 'text'; text: string }
  | { kind: 'empty' }
  /** No way to read the clipboard here; `message` says why and what to install. */
  | { kind: 'unavailable'; message: string };

export interface ClipboardOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Each tool gets this long (default 3 s); a clipboard owner that never answers must not hang Ctrl-V. */
  timeoutMs?: number;
}

const MAX_CLIPBOARD_BYTES = 64 * 1024 * 1024;
/** Image types a clipboard may offer, the ones models take first. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

function run(file: string, args: string[], timeoutMs: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'buffer', timeout: timeoutMs, maxBuffer: MAX_CLIPBOARD_BYTES }, (err, stdout) =>
      resolve(err ? undefined : stdout),
    );
  });
}

function imageTypeIn(types: string): string | undefined {
  const offered = types.split(/\r?\n/).map((t) => t.trim());
  return IMAGE_TYPES.find((t) => offered.includes(t));
}

function textOrEmpty(out: Buffer | undefined): ClipboardContent {
  const text = out?.toString('utf8') ?? '';
  return text ? { kind: 'text', text } : { kind: 'empty' };
}

async function wayland(tool: string, timeoutMs: number): Promise<ClipboardContent> {
  const types = (await run(tool, ['--list-types'], timeoutMs))?.toString('utf8') ?? '';
  const image = imageTypeIn(types);
  if (image) {
    const data = await run(tool, ['--no-newline', '--type', image], timeoutMs);
    if (data?.length) return { kind: 'image', data, mediaType: image };
  }
  return /text|STRING/.test(types) ? textOrEmpty(await run(tool, ['--no-newline'], timeoutMs)) : { kind: 'empty' };
}

async function x11(tool: string, timeoutMs: number): Promise<ClipboardContent> {
  const types =
    (await run(tool, ['-selection', 'clipboard', '-t', 'TARGETS', '-o'], timeoutMs))?.toString('utf8') ?? '';
  const image = imageTypeIn(types);
  if (image) {
    const data = await run(tool, ['-selection', 'clipboard', '-t', image, '-o'], timeoutMs);
    if (data?.length) return { kind: 'image', data, mediaType: image };
  }
  return textOrEmpty(await run(tool, ['-selection', 'clipboard', '-o'], timeoutMs));
}

const POWERSHELL_IMAGE =
  'Add-Type -AssemblyName System.Windows.Forms; Add-Type -AssemblyName System.Drawing; ' +
  '$i = [Windows.Forms.Clipboard]::GetImage(); if ($i) { $m = New-Object IO.MemoryStream; ' +
  '$i.Save($m, [Drawing.Imaging.ImageFormat]::Png); [Convert]::ToBase64String($m.ToArray()) }';

async function powershell(tool: string, timeoutMs: number): Promise<ClipboardContent> {
  const base64 = (await run(tool, ['-NoProfile', '-NonInteractive', '-Command', POWERSHELL_IMAGE], timeoutMs))
    ?.toString('utf8')
    .trim();
  if (base64) return { kind: 'image', data: Buffer.from(base64, 'base64'), mediaType: 'image/png' };
  return textOrEmpty(await run(tool, ['-NoProfile', '-NonInteractive', '-Command', 'Get-Clipboard -Raw'], timeoutMs));
}

async function macos(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ClipboardContent> {
  const pngpaste = executableOnPath('pngpaste', env.PATH);
  if (pngpaste) {
    const data = await run(pngpaste, ['-'], timeoutMs);
    if (data?.length) return { kind: 'image', data, mediaType: 'image/png' };
  } else {
    // AppleScript prints the PNG flavour as «data PNGf89504E47…»: hex after the four-letter type.
    const out = (await run('osascript', ['-e', 'the clipboard as «class PNGf»'], timeoutMs))?.toString('utf8') ?? '';
    const hex = /«data PNGf([0-9A-Fa-f]+)»/.exec(out)?.[1];
    if (hex) return { kind: 'image', data: Buffer.from(hex, 'hex'), mediaType: 'image/png' };
  }
  return textOrEmpty(await run('pbpaste', [], timeoutMs));
}

function isWsl(env: NodeJS.ProcessEnv): boolean {
  if (env.WSL_DISTRO_NAME) return true;
  try {
    return /microsoft/i.test(readFileSync('/proc/version', 'utf8'));
  } catch {
    return false;
  }
}

/** The clipboard's image (preferred) or text, or why it cannot be read here. */
export async function readClipboard(opts: ClipboardOptions = {}): Promise<ClipboardContent> {
  const platform = opts.platform ?? process.platform;
  const env = opts.env ?? process.env;
  const timeoutMs = opts.timeoutMs ?? 3_000;
  if (platform === 'darwin') return macos(env, timeoutMs);
  if (platform === 'win32') {
    const tool = executableOnPath('powershell.exe', env.PATH) ?? 'powershell.exe';
    return powershell(tool, timeoutMs);
  }
  const wlPaste = env.WAYLAND_DISPLAY ? executableOnPath('wl-paste', env.PATH) : undefined;
  if (wlPaste) return wayland(wlPaste, timeoutMs);
  const xclip = env.DISPLAY ? executableOnPath('xclip', env.PATH) : undefined;
  if (xclip) return x11(xclip, timeoutMs);
  const ps = isWsl(env) ? executableOnPath('powershell.exe', env.PATH) : undefined;
  if (ps) return powershell(ps, timeoutMs);
  if (!env.WAYLAND_DISPLAY && !env.DISPLAY) {
    return {
      kind: 'unavailable',
      message:
        'The clipboard cannot be read: there is no graphical session here (neither WAYLAND_DISPLAY nor DISPLAY is set, e.g. over SSH).',
    };
  }
  const missing = env.WAYLAND_DISPLAY ? 'wl-paste (package wl-clipboard)' : 'xclip';
  return {
    kind: 'unavailable',
    message: `The clipboard cannot be read: ${missing} is not installed. Install it to paste images with Ctrl-V.`,
  };
}
