// What installed plugins cost every request (docs/plugins.md, "Context budget"): for each plugin folder given,
// a fresh home with only that plugin installed, `jarvis -p hi` against the loopback mock model, and the first
// request's bytes next to the default configuration's measured in the same run; then all of them together.
// It checks that every skill of every plugin is named in the request's system prompt, and reports the ones that
// are not. Plugin folders are read where they are (nothing is copied into this repository).
// Usage: node scripts/build.mjs && node bench/pluginCost.bench.mjs <plugin-folder>... [--window TOKENS]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bin, jarvisEnv, loadMockModelServer, runJarvisChild } from './jarvisChild.mjs';

const args = process.argv.slice(2);
const windowAt = args.indexOf('--window');
const window = windowAt >= 0 ? args.splice(windowAt, 2)[1] : undefined;
const folders = args.map((a) => resolve(a));
if (!folders.length) {
  console.error('usage: node bench/pluginCost.bench.mjs <plugin-folder>... [--window TOKENS]');
  process.exit(2);
}
const startMockModelServer = await loadMockModelServer();
const server = await startMockModelServer();
const dirs = [];

/** A fresh home and project, with the built `jarvis` on PATH (WebBridge's MCP server is `jarvis webbridge-mcp`). */
function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-plugin-cost-'));
  dirs.push(dir);
  const ws = { home: join(dir, 'home'), cwd: join(dir, 'work'), bin: join(dir, 'bin') };
  for (const d of Object.values(ws)) mkdirSync(d, { recursive: true });
  symlinkSync(bin, join(ws.bin, 'jarvis'));
  const env = jarvisEnv(ws, server, {
    HOME: ws.home,
    PATH: `${ws.bin}:${process.env.PATH ?? ''}`,
    ...(window ? { JARVIS_MODEL_MAX_CONTEXT_SIZE: window } : {}),
  });
  return { ...ws, env };
}

function jarvisJson(ws, cliArgs) {
  const r = spawnSync(process.execPath, [bin, ...cliArgs, '--json'], { cwd: ws.cwd, env: ws.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`jarvis ${cliArgs.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Installs the folders; returns each plugin's id and skill names as `jarvis plugin info` lists them. */
function install(ws, list) {
  return list.map((folder) => {
    const installed = jarvisJson(ws, ['plugin', 'install', folder]);
    const id = installed.id ?? installed.plugin?.id;
    const info = jarvisJson(ws, ['plugin', 'info', id]);
    return { folder, id, skills: info.skills ?? [] };
  });
}

/** The first request of `jarvis -p hi` in this workspace. */
async function firstRequest(ws) {
  const before = server.requests.length;
  server.push({ text: 'ok' });
  await runJarvisChild(['-p', 'hi'], { cwd: ws.cwd, env: ws.env });
  const body = server.requests[before].body;
  return { bytes: Buffer.byteLength(JSON.stringify(body)), system: body.messages[0].content };
}

const named = (system, skill) => {
  const escaped = skill.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^- ${escaped}: |^- also .*(?<![\\w-])${escaped}(?![\\w-]))`, 'm').test(system);
};

try {
  const base = await firstRequest(workspace());
  const rows = [];
  for (const folder of folders) {
    const ws = workspace();
    const [plugin] = install(ws, [folder]);
    const first = await firstRequest(ws);
    const missing = plugin.skills.filter((s) => !named(first.system, s));
    rows.push({ ...plugin, bytes: first.bytes, missing });
  }
  const ws = workspace();
  const all = install(ws, folders);
  const together = await firstRequest(ws);
  const missingTogether = all.flatMap((p) => p.skills.filter((s) => !named(together.system, s)));

  const kib = (b) => `${(b / 1024).toFixed(2)} KiB`;
  console.log(`context window: ${window ?? 'the mock model default (262,144 tokens)'}`);
  console.log(`| plugin | skills | first request | cost over the default | skills not named |`);
  console.log(`| --- | ---: | ---: | ---: | --- |`);
  console.log(`| (default configuration) | – | ${base.bytes} (${kib(base.bytes)}) | 1.00× | – |`);
  for (const r of rows)
    console.log(
      `| ${r.id} | ${r.skills.length} | ${r.bytes} | +${r.bytes - base.bytes} (${(r.bytes / base.bytes).toFixed(2)}×) | ${r.missing.join(', ') || 'none'} |`,
    );
  console.log(
    `| all ${folders.length} together | ${all.reduce((n, p) => n + p.skills.length, 0)} | ${together.bytes} (${kib(together.bytes)}) | +${together.bytes - base.bytes} (${(together.bytes / base.bytes).toFixed(2)}×) | ${missingTogether.join(', ') || 'none'} |`,
  );
  if (missingTogether.length || rows.some((r) => r.missing.length)) process.exitCode = 1;
} finally {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
