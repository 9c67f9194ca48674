import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

describe('start path', () => {
  it('jarvis --version prints the package version', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['--version'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('the entry module imports nothing at load time but Node built-ins; the program is a lazy chunk', () => {
    const entry = readFileSync(DIST, 'utf8');
    const staticImports = [...entry.matchAll(/^import\s[^;]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(staticImports.every((s) => s.startsWith('node:'))).toBe(true);
    expect(entry).toMatch(/await import\(["']\.\/chunks\/program-/);
    expect(entry.length).toBeLessThan(2_000);
    // Provider SDKs are never bundled into the start path.
    expect(entry).not.toMatch(/openai|anthropic/);
  });

  it('jarvis --help lists the main options', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['--help'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(0);
    for (const flag of [
      '--continue',
      '--session',
      '--model',
      '--prompt',
      '--output-format',
      '--yolo',
      '--auto',
      '--plan',
    ])
      expect(r.stdout).toContain(flag);
  });

  it('jarvis doctor reports an invalid config without changing it and exits 1; a valid one exits 0', async () => {
    const dirs = makeCliDirs();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dirs.home}/config.toml`, 'default_permission_mode = "sometimes"\n');
    const bad = await runJarvis(['doctor'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/default_permission_mode/);
    expect(readFileSync(`${dirs.home}/config.toml`, 'utf8')).toBe('default_permission_mode = "sometimes"\n');
    writeFileSync(`${dirs.home}/config.toml`, 'default_permission_mode = "yolo"\n');
    const noModel = await runJarvis(['doctor'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(noModel.code).toBe(1);
    expect(noModel.stdout).toContain('model: not resolved');
    const good = await runJarvis(['doctor'], {
      env: cliEnv(dirs, mockModelEnv('http://127.0.0.1:9/v1')),
      cwd: dirs.cwd,
    });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('model: ok');
  });

  it('JARVIS_DIAGNOSTICS_FILE receives the process resource usage on exit (used by the benchmarks)', async () => {
    const dirs = makeCliDirs();
    const file = `${dirs.home}/diag.json`;
    const r = await runJarvis(['--help'], { env: cliEnv(dirs, { JARVIS_DIAGNOSTICS_FILE: file }), cwd: dirs.cwd });
    expect(r.code).toBe(0);
    const usage = JSON.parse(readFileSync(file, 'utf8'));
    expect(usage.maxRSS).toBeGreaterThan(0);
    expect(usage.userCPUTime).toBeGreaterThan(0);
  });
});

/** Every chunk a chunk loads at once (static imports and re-exports, transitively). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:^|[;\s])(?:import|export)\s*(?:[^'"();]*?from\s*)?["'](\.\/[^"']+)["']/g))
    staticClosure(join(dirname(file), m[1]), seen);
  return seen;
}

describe('the start chunk (scripts/startChunk.mjs)', () => {
  const chunksDir = join(dirname(DIST), 'chunks');
  const chunks = () => readdirSync(chunksDir).filter((f) => f.endsWith('.js'));

  it('print mode loads the program, the print command and the session as one chunk, nothing else at once', () => {
    const start = chunks().filter((f) => /^start-[0-9A-F]{8}\.js$/.test(f));
    expect(start).toHaveLength(1);
    for (const front of chunks().filter((f) => /^(program|printCommand|sessionPlugins)-/.test(f))) {
      const loaded = [...staticClosure(join(chunksDir, front))].map((p) => basename(p));
      expect(loaded).toEqual([front, start[0]]);
    }
  });

  it('the chunks merged into it stay as re-exports of it, so the UI, ACP and the SDK share its one copy', () => {
    const start = chunks().find((f) => f.startsWith('start-'))!;
    const facades = chunks().filter((f) => readFileSync(join(chunksDir, f), 'utf8').includes(`from "./${start}"`));
    expect(facades.length).toBeGreaterThan(50);
    for (const f of facades)
      expect(readFileSync(join(chunksDir, f), 'utf8')).toMatch(/^export \{[^}]*\} from "[^"]+";\n$/);
    // The interactive UI's chunk reaches the session code through them.
    const app = chunks().find((f) => f.startsWith('app-'))!;
    expect([...staticClosure(join(chunksDir, app))].map((p) => basename(p))).toContain(start);
  });
});

describe('lazy MCP SDK', () => {
  it('print mode and the UI load the MCP SDK only when a server is configured (it sits behind import())', () => {
    const chunks = readdirSync(join(dirname(DIST), 'chunks')).filter((f) => f.endsWith('.js'));
    const sdk = chunks.filter((f) =>
      /notifications\/tools\/list_changed|Error POSTing to endpoint/.test(
        readFileSync(join(dirname(DIST), 'chunks', f), 'utf8'),
      ),
    );
    expect(sdk.length).toBeGreaterThan(0);
    for (const front of chunks.filter((f) => /^(printCommand|app)-/.test(f))) {
      const loaded = [...staticClosure(join(dirname(DIST), 'chunks', front))].map((p) => basename(p));
      expect(loaded.filter((f) => sdk.includes(f))).toEqual([]);
    }
  });
});
