// Start-up on a new machine (docs/mcp.md, "Lazy start"): the bundled Jarvis Documents plugin's tool list ships with
// the package (dist/plugins/jarvis-documents/bin/listing.json, recorded from the server by scripts/build.mjs; that
// it is what the server answers is test/plugins/jarvisDocuments/launcher.test.ts), so a fresh home offers its tools
// without starting its server before the first request and prints no wait line. A damaged shipped list is a
// warning and the server starts to list its tools. The built binary and the loopback mock model.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

/** Processes whose command line contains `text` (pgrep -f). */
function running(text: string): number {
  try {
    return execFileSync('pgrep', ['-f', text], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

let server: MockModelServer;
/** For each request, whether the documents server of the home under test ran when it arrived. */
let serverRanAtRequest: boolean[] = [];
let documentsServer = '';
beforeAll(async () => {
  server = await startMockModelServer({
    script: () => {
      serverRanAtRequest.push(running(documentsServer) > 0);
      return { text: 'ok' };
    },
  });
});
afterAll(async () => {
  await server.close();
});

function freshHome() {
  const dirs = makeCliDirs();
  documentsServer = join(dirs.home, 'plugins/managed/jarvis-documents/bin/server.mjs');
  serverRanAtRequest = [];
  return dirs;
}

describe('the bundled plugin on a fresh home', () => {
  it('offers its tools from the shipped list: no server started before the first request, no wait line', async () => {
    const dirs = freshHome();
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'hi'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('Waiting for MCP server');
    expect(r.stderr).not.toMatch(/warning/);
    expect(serverRanAtRequest).toEqual([false]);
    // Its tools are there, deferred behind ToolSearch, by the names the server lists.
    expect(JSON.stringify(server.requests[before].body.tools)).toMatch(
      /plugin-jarvis-documents_documents__\{[^}]*create_pdf/,
    );
  });

  it('a damaged shipped list is a warning, and the server is started to list its tools', async () => {
    const dirs = freshHome();
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    // The first run installs the managed copy; nothing is cached yet (the server never ran). Its list is damaged —
    // and so is the server, whose launcher answers from the same file: it fails, the session goes on.
    expect((await runJarvis(['-p', 'hi'], { env, cwd: dirs.cwd })).code).toBe(0);
    const listing = join(dirs.home, 'plugins/managed/jarvis-documents/bin/listing.json');
    writeFileSync(listing, '{"tools": [{"name": 42}]');
    const r = await runJarvis(['-p', 'hi'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `the tool list shipped with MCP server "plugin-jarvis-documents_documents" (${listing}) could not be used`,
    );
    expect(r.stderr).toContain('Waiting for MCP server "plugin-jarvis-documents_documents"');
    expect(r.stderr).toMatch(/MCP server "plugin-jarvis-documents_documents" is not available/);
  });
});
