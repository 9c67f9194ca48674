// Cost per computer-use action (docs/computer-use.md, "Why the X protocol"): a screenshot (capture, scale to the
// 1280×800 space, PNG encode), a click, and typing (per character, ASCII and text the keyboard map lacks), each
// measured three ways in the same run, interleaved, on one Xvfb display (1600×1000, so screenshots are scaled):
//   - the plugin's MCP server as Jarvis runs it (dist/plugins/jarvis-computer-use, over stdio: what the agent pays);
//   - the same desktop code in this process (the X protocol work alone);
//   - the plain tool invocation a shell-out design would make: ImageMagick's `import -window root [-resize]
//     png:-`, `xdotool mousemove X Y click 1`, `xdotool type` (its default 12 ms between keys, and --delay 0).
// Usage: node scripts/build.mjs && node bench/computerUse.bench.mjs [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = resolve(import.meta.dirname, '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });

const missing = ['Xvfb', 'xdotool', 'import', 'python3'].filter(
  (c) => spawnSync('bash', ['-c', `command -v ${c}`]).status !== 0,
);
if (missing.length) {
  console.log(`skipped: ${missing.join(', ')} not installed (Debian: xvfb xdotool imagemagick python3-tk)`);
  process.exit(0);
}

const entry = join(outDir, 'computerUseEntry.mjs');
await build({
  entryPoints: [join(root, 'bench', 'computerUseEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  loader: { '.md': 'text' },
  logLevel: 'warning',
});
const { Desktop, TYPE_DELAY_MS } = await import(entry);

// The display and a text field to type into.
const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], {
  stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
});
const display = await new Promise((r) => xvfb.stdio[3].once('data', (d) => r(`:${String(d).trim()}`)));
const env = { ...process.env, DISPLAY: display };
const app = spawn(
  'python3',
  [
    '-c',
    'import tkinter as tk\nr = tk.Tk()\nr.geometry("900x200+0+0")\ne = tk.Entry(r, width=120)\ne.pack()\ne.focus_force()\nr.after(100, lambda: print("ready", flush=True))\nr.mainloop()',
  ],
  { env, stdio: ['ignore', 'pipe', 'ignore'] },
);
await new Promise((r) => app.stdout.once('data', r));

const desktop = new Desktop({ HOME: '/nonexistent', DISPLAY: display });
// Without the pause between characters: what the X protocol work itself costs per character.
const unpaced = new Desktop({ HOME: '/nonexistent', DISPLAY: display }, { typeDelayMs: 0 });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(
  new StdioClientTransport({
    command: join(root, 'dist/plugins/jarvis-computer-use/bin/server.mjs'),
    env: { PATH: process.env.PATH, HOME: '/nonexistent', DISPLAY: display },
  }),
);
const mcp = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(r.content[0].text);
  return r;
};

const now = () => Number(process.hrtime.bigint()) / 1e6;
const time = async (fn) => {
  const t = now();
  await fn();
  return now() - t;
};
const shell = (cmd, args) =>
  time(
    () =>
      new Promise((res, rej) =>
        spawn(cmd, args, { env, stdio: 'ignore' }).on('exit', (c) =>
          c === 0 ? res() : rej(new Error(`${cmd} exited ${c}`)),
        ),
      ),
  );

const ascii = 'the quick brown fox jumps over the lazy dog 0123456789'.slice(0, 40);
const unicode = 'ação é ñ ü ł → 中文 ✓ ß œ ø å ç ž ř ů ő ű ğ ş ı ǎ ǐ ǒ ǔ'.slice(0, 40);
const cases = {
  'screenshot (capture + scale to 1280×800 + PNG)': {
    mcp: () => mcp('screenshot', {}),
    inProcess: () => desktop.screenshot(undefined),
    tools: [
      [
        'import -window root -resize 1280x800 png:-',
        () => shell('bash', ['-c', 'import -window root -resize 1280x800 png:- >/dev/null']),
      ],
      ['import -window root png:- (no scaling)', () => shell('bash', ['-c', 'import -window root png:- >/dev/null'])],
    ],
  },
  click: {
    mcp: () => mcp('click', { x: 1000, y: 700 }),
    inProcess: () => desktop.click({ x: 1000, y: 700 }, 'left', 1, []),
    tools: [['xdotool mousemove 1250 875 click 1', () => shell('xdotool', ['mousemove', '1250', '875', 'click', '1'])]],
  },
  [`type ${ascii.length} ASCII characters`]: {
    perChar: ascii.length,
    mcp: () => mcp('type_text', { text: ascii }),
    inProcess: () => desktop.type(ascii),
    unpaced: () => unpaced.type(ascii),
    tools: [
      ['xdotool type (12 ms between keys)', () => shell('xdotool', ['type', ascii])],
      ['xdotool type --delay 0', () => shell('xdotool', ['type', '--delay', '0', ascii])],
    ],
  },
  [`type ${[...unicode].length} characters, most not on the keyboard map`]: {
    perChar: [...unicode].length,
    mcp: () => mcp('type_text', { text: unicode }),
    inProcess: () => desktop.type(unicode),
    unpaced: () => unpaced.type(unicode),
    tools: [
      ['xdotool type (12 ms between keys)', () => shell('xdotool', ['type', unicode])],
      ['xdotool type --delay 0', () => shell('xdotool', ['type', '--delay', '0', unicode])],
    ],
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms, perChar) =>
  perChar ? `${ms.toFixed(1)} ms (${(ms / perChar).toFixed(2)} ms/char)` : `${ms.toFixed(1)} ms`;
console.log(`runs: ${runs} (medians, interleaved); display ${display} 1600×1000, screenshot space 1280×800`);
for (const [name, c] of Object.entries(cases)) {
  const samples = { mcp: [], inProcess: [], unpaced: [], tools: c.tools.map(() => []) };
  await c.mcp();
  await c.inProcess();
  for (let i = 0; i < runs; i++) {
    samples.mcp.push(await time(c.mcp));
    samples.inProcess.push(await time(c.inProcess));
    if (c.unpaced) samples.unpaced.push(await time(c.unpaced));
    for (const [j, [, run]] of c.tools.entries()) samples.tools[j].push(await run());
  }
  const base = median(samples.tools[0]);
  console.log(`\n${name}`);
  for (const [j, [label]] of c.tools.entries()) console.log(`  ${label}: ${fmt(median(samples.tools[j]), c.perChar)}`);
  console.log(
    `  jarvis-computer-use over MCP: ${fmt(median(samples.mcp), c.perChar)} — ${(median(samples.mcp) / base).toFixed(2)}× the first`,
  );
  console.log(
    `  the same in-process: ${fmt(median(samples.inProcess), c.perChar)} — ${(median(samples.inProcess) / base).toFixed(2)}× the first`,
  );
  if (c.unpaced) {
    const raw = median(samples.unpaced);
    const [label, fast] = [c.tools.at(-1)[0], median(samples.tools.at(-1))];
    console.log(
      `  in-process without the ${TYPE_DELAY_MS} ms pause: ${fmt(raw, c.perChar)} — ${(raw / fast).toFixed(2)}× ${label}`,
    );
  }
}

await client.close();
await desktop.close();
await unpaced.close();
app.kill();
xvfb.kill();
