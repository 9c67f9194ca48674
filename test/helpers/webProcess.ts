// `jarvis web --port 0 --no-open` as a child process on the built CLI (docs/web.md): its address, token and the
// one-time login link it printed; and the system Chromium through the project's playwright-core.
import { chromium, type Browser } from 'playwright-core';
import { cliEnv, spawnJarvis, waitUntil, type CliDirs } from './cli';
import type { Served } from './serveProcess';

export interface WebServed extends Served {
  /** The one-time link `jarvis web` printed. */
  link: string;
}

export async function startWeb(dirs: CliDirs, env: Record<string, string>, args: string[] = []): Promise<WebServed> {
  const child = spawnJarvis(['web', '--port', '0', '--no-open', ...args], { env: cliEnv(dirs, env), cwd: dirs.cwd });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  await waitUntil(() => /#login=\S+/.test(out) || exited, 30_000, `jarvis web to start\n${err}`);
  if (exited) throw new Error(`jarvis web exited:\n${out}\n${err}`);
  const url = /Jarvis server at (\S+)/.exec(out)![1];
  return {
    child,
    url,
    port: Number(new URL(url).port),
    token: /Token: (\S+)/.exec(out)![1],
    link: /(http:\/\/\S+\/#login=\S+)/.exec(out)![1],
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      await waitUntil(() => exited, 20_000, 'jarvis web to stop');
    },
  };
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
