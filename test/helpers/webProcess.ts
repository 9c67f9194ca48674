// `jarvis web --port 0 --no-open` as a child process on the built CLI (docs/web.md): its address, token and the
// one-time login link it printed; and the system Chromium through the project's playwright-core.
import { chromium, type Browser } from 'playwright-core';
import type { CliDirs } from './cli';
import { startServe, type Served } from './serveProcess';

export interface WebServed extends Served {
  /** The one-time link `jarvis web` printed. */
  link: string;
}

export async function startWeb(dirs: CliDirs, env: Record<string, string>, args: string[] = []): Promise<WebServed> {
  const served = await startServe(dirs, env, ['--no-open', ...args], 'web');
  return { ...served, link: /(http:\/\/\S+\/#login=\S+)/.exec(served.stdout())![1] };
}

/** A new one-time link from the running server (POST /api/v1/auth/links with the token). */
export async function newLink(s: Served): Promise<string> {
  const res = await fetch(`${s.url}/api/v1/auth/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json()) as { code: number; msg: string; data: { url: string } };
  if (body.code !== 0) throw new Error(`no link: ${body.msg}`);
  return body.data.url;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.JARVIS_TEST_CHROMIUM ?? '/usr/bin/chromium',
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}
