// The launcher in front of the bundled jarvis-documents server (scripts/pluginLauncher.mjs): the
// handshake and tools/list come from the listing recorded at build time, without loading the server, and
// that listing is exactly what the server itself answers once it is loaded.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENTS_PLUGIN_DIR } from '../../helpers/documentsServer';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function connect(pluginDir: string): Promise<Client> {
  const cwd = mkdtempSync(join(tmpdir(), 'documents-launcher-'));
  dirs.push(cwd);
  const client = new Client({ name: 'launcher-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: join(pluginDir, 'bin/server.mjs'),
      cwd,
      stderr: 'ignore',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    }),
  );
  return client;
}

describe('jarvis-documents launcher', { timeout: 60_000 }, () => {
  it('answers the handshake and tools/list without loading the server (its bundle may even be missing)', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'documents-copy-'));
    dirs.push(copy);
    cpSync(DOCUMENTS_PLUGIN_DIR, copy, { recursive: true });
    rmSync(join(copy, 'bin/server.mjs.gz'));
    const client = await connect(copy);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('create_pdf');
    expect(tools).toContain('render_document');
    expect(client.getServerVersion()?.name).toBe('jarvis-documents');
    await client.close();
  });

  it('the recorded listing is what the loaded server answers, and calls reach the server', async () => {
    const client = await connect(DOCUMENTS_PLUGIN_DIR);
    const fromListing = (await client.listTools()).tools;
    const answer = await client.callTool({ name: 'validate_document', arguments: { path: 'missing.pdf' } });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toContain('missing.pdf');
    // The server is loaded now: tools/list goes to it.
    expect((await client.listTools()).tools).toEqual(fromListing);
    await client.close();
  });
});
