// The windows around project MCP trust (docs/mcp.md, "Workspace trust"; issue 43's corpus), each row
// {name, setup, attack, check}, each first shown to work on the unfixed path:
// - between the check and the start: a file swapped right after it was checked (a background command racing the
//   start) — the interpreter runs the checked copy (node ES module and CommonJS, python, bash, a `#!` program),
//   as root and as an unprivileged user; unfixed, running the path reads the swapped file;
// - between reading the configuration and a lazy server's start: the script changed mid-session is refused;
// - between parsing `.mcp.json` and digesting it: one read (a FIFO serving the planted text first, then the
//   trusted text, gets the planted servers approved by two reads and refused by one);
// - between showing the trust question and the yes: the yes records what was shown.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { McpManager } from '../../../src/ext/mcp/mcpManager';
import { pinLaunch } from '../../../src/ext/mcp/launchPin';
import { loadMcpServers } from '../../../src/store/mcpConfig';
import { sha256 } from '../../../src/store/mcpLaunch';
import { setWorkspaceTrust, workspaceTrust } from '../../../src/store/trust';
import { handOver, runAsUser, sandboxTestUsers, shareWithUsers, type TestUser } from '../../helpers/sandboxUsers';
import { tempDir } from '../../helpers/files';
import { EVERYTHING_BIN } from '../../helpers/mcpServers';

const defaults = { startupTimeoutMs: 60_000, toolTimeoutMs: 60_000 };

// Every path node:fs opens or reads by name (the code under test unchanged: each call goes on to the real one).
const opened = vi.hoisted((): string[] => []);
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = (path: Parameters<typeof fs.openSync>[0], ...rest: unknown[]) => {
    opened.push(String(path));
    return (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
  };
  const readFileSync = (path: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) => {
    if (typeof path !== 'number') opened.push(String(path));
    return (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  };
  return { ...fs, default: { ...fs, openSync, readFileSync }, openSync, readFileSync };
});

/** How many times `fn` opened or read `file` by name. */
function countReads<T>(file: string, fn: () => T): { result: T; count: number } {
  const before = opened.length;
  const result = fn();
  return { result, count: opened.slice(before).filter((p) => p === file).length };
}

interface Workspace {
  root: string;
  cwd: string;
  home: string;
  canary: string;
}

function workspace(): Workspace {
  const root = tempDir('jarvis-mcp-pin-');
  shareWithUsers(root);
  const w = { root, cwd: join(root, 'work'), home: join(root, 'home'), canary: join(root, 'canary') };
  mkdirSync(join(w.cwd, '.git'), { recursive: true });
  mkdirSync(w.home);
  return w;
}

const put = (path: string, text: string, mode = 0o644) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
};

/** Loads the project's servers as a session does (the folder trusted) and returns the one named `docs`. */
function docsServer(w: Workspace) {
  const loaded = loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: true, defaults });
  const docs = loaded.servers.find((s) => s.name === 'docs');
  if (!docs) throw new Error(`docs is not approved: ${JSON.stringify(loaded.changes)}`);
  return docs;
}

interface RaceRow {
  name: string;
  /** The launch line and the files it starts with: `text(word)` is a script printing `word`. */
  setup: (w: Workspace) => { entry: Record<string, unknown>; file: string; text: (word: string) => string };
}

const printing = {
  esm: (word: string) => `import { basename } from 'node:path';\nconsole.log(${JSON.stringify(word)});\n`,
  cjs: (word: string) => `require('node:path');\nconsole.log(${JSON.stringify(word)});\n`,
};

const raceRows: RaceRow[] = [
  {
    name: 'node, an ES module',
    setup: (w) => ({
      entry: { command: 'node', args: ['tools/srv.mjs'] },
      file: join(w.cwd, 'tools/srv.mjs'),
      text: printing.esm,
    }),
  },
  {
    name: 'node, CommonJS',
    setup: (w) => ({
      entry: { command: 'node', args: ['tools/srv.cjs'] },
      file: join(w.cwd, 'tools/srv.cjs'),
      text: printing.cjs,
    }),
  },
  {
    name: 'node with options, a .js file in a "type": "module" package',
    setup: (w) => {
      put(join(w.cwd, 'tools', 'package.json'), '{"type": "module"}');
      return {
        entry: { command: 'node', args: ['--no-warnings', 'tools/srv.js'] },
        file: join(w.cwd, 'tools/srv.js'),
        text: printing.esm,
      };
    },
  },
  {
    name: 'python3 -u',
    setup: (w) => ({
      entry: { command: '/usr/bin/python3', args: ['-u', 'tools/srv.py'] },
      file: join(w.cwd, 'tools/srv.py'),
      text: (word) => `print(${JSON.stringify(word)})\n`,
    }),
  },
  {
    name: 'bash',
    setup: (w) => ({
      entry: { command: 'bash', args: ['tools/srv.sh'] },
      file: join(w.cwd, 'tools/srv.sh'),
      text: (word) => `echo ${word}\n`,
    }),
  },
  {
    name: 'a program with a #! line',
    setup: (w) => ({
      entry: { command: './tools/srv' },
      file: join(w.cwd, 'tools/srv'),
      text: (word) => `#!/usr/bin/env node\nconsole.log(${JSON.stringify(word)});\n`,
    }),
  },
];

function run(user: TestUser, command: string, args: string[], cwd: string) {
  const r = runAsUser(user, command, args, { cwd, env: { ...process.env, HOME: cwd }, input: '' });
  return `${r.stdout}${r.stderr}`.trim();
}

describe.each(sandboxTestUsers('mcp-pin'))(
  'a launch file swapped right after its check runs the checked bytes, as $label',
  (user) => {
    it.each(raceRows)('$name', (row) => {
      const w = workspace();
      const { entry, file, text } = row.setup(w);
      put(file, text('trusted'), 0o755);
      writeFileSync(join(w.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { docs: entry } }));
      setWorkspaceTrust(w.home, w.cwd, true);
      const docs = docsServer(w);
      // The private copy goes where the user running the server can read it (its own TMPDIR in a session).
      const tmp = process.env.TMPDIR;
      process.env.TMPDIR = w.root;
      const pinned = pinLaunch(docs, process.env, w.cwd);
      process.env.TMPDIR = tmp;
      // The race: right after the check, before the interpreter reads the file.
      put(file, text('planted'), 0o755);
      handOver(user, w.root);
      try {
        // Unfixed, the launch line reads the path again and runs the planted text.
        expect(run(user, docs.command!, docs.args, w.cwd)).toBe('planted');
        expect(run(user, pinned.command, pinned.args, w.cwd)).toBe('trusted');
      } finally {
        pinned.cleanup();
      }
    });
  },
);

describe('the other windows', () => {
  it("a lazy server's script changed mid-session is not started, and the error asks for trust again", async () => {
    const w = workspace();
    const file = join(w.cwd, 'tools', 'srv.mjs');
    const serve = (marker: string) =>
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marker)}, 'x');\n` +
      `process.argv.push('stdio');\nawait import(${JSON.stringify(EVERYTHING_BIN)});\n`;
    put(file, serve(join(w.root, 'good')));
    writeFileSync(
      join(w.cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args: [file] } } }),
    );
    setWorkspaceTrust(w.home, w.cwd, true);
    const docs = docsServer(w);
    // Unfixed: the session's check was at start-up; the file a command rewrites afterwards is what runs.
    put(file, serve(w.canary));
    const manager = new McpManager([docs], { clientInfo: { name: 'test', version: '1' } });
    const failures: string[] = [];
    manager.onStartFailure((_server, error) => failures.push(error));
    await manager.start();
    await manager.close();
    expect(existsSync(w.canary)).toBe(false);
    expect(failures.join('\n')).toMatch(
      /tools\/srv\.mjs changed since this workspace was trusted, so MCP server "docs" was not started/,
    );
    expect(failures.join('\n')).toContain('approve it in the trust question');
  });

  it('a file that appears among the launch files after the configuration was read is refused', () => {
    const w = workspace();
    writeFileSync(
      join(w.cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['tools/srv.mjs'] } } }),
    );
    setWorkspaceTrust(w.home, w.cwd, true);
    const docs = docsServer(w);
    put(join(w.cwd, 'tools', 'srv.mjs'), 'planted');
    expect(() => pinLaunch(docs, process.env, w.cwd)).toThrow(
      /tools\/srv\.mjs changed since this workspace was trusted/,
    );
  });

  it('.mcp.json is parsed and digested from one read (a FIFO serving two contents)', async () => {
    const w = workspace();
    const trusted = JSON.stringify({ mcpServers: { docs: { command: 'trusted-server' } } });
    const planted = JSON.stringify({ mcpServers: { planted: { command: 'evil' } } });
    writeFileSync(join(w.cwd, '.mcp.json'), trusted);
    setWorkspaceTrust(w.home, w.cwd, true);
    expect(workspaceTrust(w.home, w.cwd)?.mcpFiles).toEqual({
      [join(w.cwd, '.mcp.json')]: sha256(Buffer.from(trusted)),
    });
    rmSync(join(w.cwd, '.mcp.json'));
    // A FIFO that gives the planted text to the first reader and, once told to, the trusted text to the next one.
    const fifo = join(w.cwd, '.mcp.json');
    const made = spawn('mkfifo', [fifo]);
    await new Promise((r) => made.on('close', r));
    const serve = () =>
      spawn(
        'bash',
        ['-c', 'printf %s "$1" > "$3"; read -r _; printf %s "$2" > "$3"', 'serve', planted, trusted, fifo],
        {
          stdio: ['pipe', 'ignore', 'ignore'],
        },
      );
    let writer = serve();
    // Unfixed: parse one read, digest another — the planted servers pass as the trusted file.
    const parsedTwice = JSON.parse(readFileSync(fifo, 'utf8')) as { mcpServers: Record<string, unknown> };
    writer.stdin!.write('\n');
    const digestedTwice = sha256(readFileSync(fifo));
    expect(Object.keys(parsedTwice.mcpServers)).toEqual(['planted']);
    expect(digestedTwice).toBe(workspaceTrust(w.home, w.cwd)?.mcpFiles?.[fifo]);
    await new Promise((r) => writer.on('close', r));

    // Fixed: one read parses and digests the same bytes, and a FIFO is no regular file: refused, never waited on.
    writer = serve();
    const loaded = loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: true, defaults });
    writer.kill();
    await new Promise((r) => writer.on('close', r));
    expect(loaded.servers.map((s) => s.name)).toEqual([]);
    expect(loaded.changed).toEqual([]);
    expect(loaded.warnings.join('\n')).toMatch(/\.mcp\.json is not a regular file/);
  });

  it('a regular .mcp.json is read once: its servers and its digest come from the same bytes', () => {
    const w = workspace();
    const file = join(w.cwd, '.mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { docs: { command: 'trusted-server' } } }));
    setWorkspaceTrust(w.home, w.cwd, true);
    const reads = countReads(file, () => loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: true, defaults }));
    expect(reads.result.servers.map((s) => s.name)).toEqual(['docs']);
    expect(reads.count).toBe(1);
  });

  it("the trust question's yes records what the question showed, not the file at the time of the yes", () => {
    const w = workspace();
    const file = join(w.cwd, 'tools', 'srv.mjs');
    put(file, 'shown');
    writeFileSync(
      join(w.cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args: [file] } } }),
    );
    const shown = loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: false, defaults });
    // While the question is open, a background command rewrites the script.
    put(file, 'planted');
    // Unfixed, the yes read the files again and so approved the planted text.
    setWorkspaceTrust(w.home, w.cwd, true, new Date(), shown.snapshot);
    const after = loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: true, defaults });
    expect(after.servers.map((s) => s.name)).toEqual([]);
    expect(after.changes).toEqual([{ file, servers: ['docs'] }]);
    // The same question answered with the file as shown approves it.
    put(file, 'shown');
    expect(
      loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: true, defaults }).servers.map((s) => s.name),
    ).toEqual(['docs']);
  });

  it('a symlinked script swapped to another target after the check still runs the checked bytes', () => {
    const w = workspace();
    const real = join(w.cwd, 'tools', 'real.mjs');
    const other = join(w.cwd, 'tools', 'other.mjs');
    put(real, printing.esm('trusted'));
    put(other, printing.esm('planted'));
    symlinkSync(real, join(w.cwd, 'tools', 'srv.mjs'));
    writeFileSync(
      join(w.cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['tools/srv.mjs'] } } }),
    );
    setWorkspaceTrust(w.home, w.cwd, true);
    const pinned = pinLaunch(docsServer(w), process.env, w.cwd);
    rmSync(join(w.cwd, 'tools', 'srv.mjs'));
    symlinkSync(other, join(w.cwd, 'tools', 'srv.mjs'));
    try {
      expect(run(sandboxTestUsers('mcp-pin')[0], pinned.command, pinned.args, w.cwd)).toBe('trusted');
    } finally {
      pinned.cleanup();
    }
  });
});
