// Project MCP trust covers what the servers are started with (docs/mcp.md, "Workspace trust"; issue 43's corpus).
// Each row: {name, setup: a trusted workspace whose `.mcp.json` starts a server from a workspace file, attack: what a
// sandboxed command changes afterwards (never `.mcp.json` itself, so the trust of its bytes alone would still
// hold), check}. The attack is first shown to run the planted code when the workspace's launch line is run as it
// stands; then `jarvis -p` (the built CLI) runs in the workspace as root and as an unprivileged user: the server
// is not started, no canary appears, stderr names the changed file — and, in the legitimate row, the unchanged
// trusted server starts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import {
  handOver,
  launcherFor,
  runAsUser,
  sandboxTestUsers,
  shareWithUsers,
  type TestUser,
} from '../helpers/sandboxUsers';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModelServer();
});
afterAll(async () => {
  await model.close();
});

interface Space {
  home: string;
  cwd: string;
  /** Appended to by planted code (outside the workspace). */
  canary: string;
  /** Written by the trusted server when it starts. */
  good: string;
}

/** A server script: marks `marker`, then serves server-everything over stdio. */
const script = (marker: string, what: string) =>
  `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marker)}, ${JSON.stringify(`${what}\n`)});\n` +
  `process.argv.push('stdio');\nawait import(${JSON.stringify(EVERYTHING_BIN)});\n`;

interface Row {
  name: string;
  /** Writes the workspace's launch files and returns the `.mcp.json` server entry (trusted right after). */
  setup: (s: Space) => Record<string, unknown>;
  /** What the sandboxed command does afterwards; returns the changed file (named in the warning). */
  attack: (s: Space) => string;
  /** The server's launch line run plainly after the attack (proves the planted code runs). */
  plain: (s: Space) => { command: string; args: string[]; env?: NodeJS.ProcessEnv };
}

const srv = (s: Space) => join(s.cwd, 'tools', 'srv.mjs');
const put = (path: string, text: string, mode = 0o644) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
};

const rows: Row[] = [
  {
    name: 'rewrites the script .mcp.json starts (tools/srv.mjs)',
    setup: (s) => (put(srv(s), script(s.good, 'good')), { command: 'node', args: ['tools/srv.mjs'], startup: 'eager' }),
    attack: (s) => (put(srv(s), script(s.canary, 'planted')), srv(s)),
    plain: (s) => ({ command: 'node', args: [srv(s)] }),
  },
  {
    name: 'creates the script .mcp.json names, missing when the folder was trusted',
    setup: () => ({ command: 'node', args: ['tools/srv.mjs'], startup: 'eager' }),
    attack: (s) => (put(srv(s), script(s.canary, 'planted')), srv(s)),
    plain: (s) => ({ command: 'node', args: [srv(s)] }),
  },
  {
    name: 'rewrites a program that is itself a workspace script (#! line)',
    setup: (s) => {
      put(join(s.cwd, 'bin', 'serve'), `#!/usr/bin/env node\n${script(s.good, 'good')}`, 0o755);
      return { command: './bin/serve', args: [], startup: 'eager' };
    },
    attack: (s) => {
      put(join(s.cwd, 'bin', 'serve'), `#!/usr/bin/env node\n${script(s.canary, 'planted')}`, 0o755);
      return join(s.cwd, 'bin', 'serve');
    },
    plain: (s) => ({ command: join(s.cwd, 'bin', 'serve'), args: [] }),
  },
  {
    name: 'rewrites a bare command that PATH finds in the workspace (node_modules/.bin)',
    setup: (s) => {
      put(join(s.cwd, 'node_modules', '.bin', 'ws-server'), `#!/usr/bin/env node\n${script(s.good, 'good')}`, 0o755);
      return { command: 'ws-server', args: [], startup: 'eager' };
    },
    attack: (s) => {
      const bin = join(s.cwd, 'node_modules', '.bin', 'ws-server');
      put(bin, `#!/usr/bin/env node\n${script(s.canary, 'planted')}`, 0o755);
      return bin;
    },
    plain: (s) => ({
      command: 'ws-server',
      args: [],
      env: { ...process.env, PATH: `${join(s.cwd, 'node_modules', '.bin')}:${process.env.PATH}` },
    }),
  },
  {
    name: 'replaces the script with a symlink to another file',
    setup: (s) => (put(srv(s), script(s.good, 'good')), { command: 'node', args: ['tools/srv.mjs'], startup: 'eager' }),
    attack: (s) => {
      put(join(s.cwd, 'tools', 'other.mjs'), script(s.canary, 'planted'));
      rmSync(srv(s));
      symlinkSync(join(s.cwd, 'tools', 'other.mjs'), srv(s));
      return srv(s);
    },
    plain: (s) => ({ command: 'node', args: [srv(s)] }),
  },
];

function space(user: TestUser): Space {
  const dirs = makeCliDirs();
  shareWithUsers(dirs.home);
  shareWithUsers(dirs.cwd);
  const outside = dirname(dirs.cwd);
  spawnSync('git', ['init', '-q'], { cwd: dirs.cwd });
  mkdirSync(join(outside, 'tmp'));
  handOver(user, outside);
  return { ...dirs, canary: join(outside, 'canary'), good: join(outside, 'good') };
}

function envFor(s: Space): NodeJS.ProcessEnv {
  const env = cliEnv(s, mockModelEnv(model.baseUrlFor('openai')));
  // The workspace's own tool folder comes first on PATH, as `npm run` and direnv set it; temporary files go to
  // the user's own folder (the test's TMPDIR is root's).
  const tmp = join(dirname(s.cwd), 'tmp');
  return { ...env, PATH: `${join(s.cwd, 'node_modules', '.bin')}:${env.PATH ?? ''}`, TMPDIR: tmp };
}

/** `jarvis -p go` in the workspace, as `user`. */
const printAs = (user: TestUser, s: Space) =>
  runJarvis(['-p', 'go'], { env: envFor(s), cwd: s.cwd, launcher: launcherFor(user), timeoutMs: 90_000 });

describe.each(sandboxTestUsers('mcp-launch'))(
  'project MCP trust covers the launched files, as $label',
  { timeout: 120_000 },
  (user) => {
    it.each(rows)('$name', async (row) => {
      const s = space(user);
      const entry = row.setup(s);
      writeFileSync(join(s.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { docs: entry } }));
      const mcpJson = readFileSync(join(s.cwd, '.mcp.json'), 'utf8');
      setWorkspaceTrust(s.home, s.cwd, true);
      handOver(user, dirname(s.cwd));

      const changed = row.attack(s);
      expect(readFileSync(join(s.cwd, '.mcp.json'), 'utf8'), '.mcp.json itself is untouched').toBe(mcpJson);
      const plain = row.plain(s);
      runAsUser(user, plain.command, plain.args, { cwd: s.cwd, env: plain.env ?? process.env, input: '' });
      expect(existsSync(s.canary), 'the planted code runs when the launch line is run').toBe(true);
      rmSync(s.canary);
      handOver(user, dirname(s.cwd));

      model.push({ text: 'Done.' });
      const r = await printAs(user, s);
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(s.canary), r.stderr).toBe(false);
      expect(r.stderr).toContain(
        `changed since this workspace was trusted; the MCP servers started with it were not started: docs`,
      );
      expect(r.stderr).toContain(changed.slice(s.cwd.length + 1));
      expect(JSON.stringify(model.requests.at(-1)!.body.tools)).not.toContain('mcp__docs__');
    });

    it('the legitimate form: the unchanged trusted server starts', async () => {
      const s = space(user);
      put(srv(s), script(s.good, 'good'));
      writeFileSync(
        join(s.cwd, '.mcp.json'),
        JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['tools/srv.mjs'], startup: 'eager' } } }),
      );
      setWorkspaceTrust(s.home, s.cwd, true);
      handOver(user, dirname(s.cwd));
      model.push({ text: 'Done.' });
      const r = await printAs(user, s);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('changed since');
      expect(readFileSync(s.good, 'utf8')).toBe('good\n');
      expect(JSON.stringify(model.requests.at(-1)!.body.tools)).toContain('mcp__docs__');
    });
  },
);
