// The shipped jarvis-documents folder installs with `jarvis plugin install`, and its server runs from the
// managed copy under $JARVIS_CODE_HOME/plugins/managed/ — where no node_modules can be resolved — in the
// user's working directory.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMarketplace, packagedMarketplacePath } from '../../../src/ext/plugins/marketplace';
import { cliEnv, makeCliDirs, runJarvis } from '../../helpers/cli';
import { DOCUMENTS_PLUGIN_DIR } from '../../helpers/documentsServer';

describe('jarvis-documents installed from the package', { timeout: 120_000 }, () => {
  it('the shipped marketplace lists it as official, with the bundled folder as its source', async () => {
    const marketplace = await loadMarketplace(undefined, { env: {}, cwd: process.cwd() });
    expect(marketplace.location).toBe(packagedMarketplacePath());
    const entry = marketplace.entries.find((e) => e.id === 'jarvis-documents');
    expect(entry).toMatchObject({ tier: 'official', version: '1.0.2', source: DOCUMENTS_PLUGIN_DIR });
    const manifest = JSON.parse(readFileSync(join(DOCUMENTS_PLUGIN_DIR, 'jarvis.plugin.json'), 'utf8')) as {
      version: string;
    };
    expect(manifest.version).toBe(entry!.version);
  });

  it('installs cleanly and its managed copy serves the tools on the folder of the session', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const installed = await runJarvis(['plugin', 'install', DOCUMENTS_PLUGIN_DIR], { env, cwd: dirs.cwd });
    expect(installed.stderr).toBe('');
    expect(installed.stdout).toContain('Installed jarvis-documents 1.0.2 to ');
    expect(installed.stdout).not.toContain('not supported');
    const info = await runJarvis(['plugin', 'info', 'jarvis-documents', '--json'], { env, cwd: dirs.cwd });
    const view = JSON.parse(info.stdout) as {
      diagnostics: string[];
      skills: string[];
      mcpServers: { name: string; enabled: boolean; runsAs: string }[];
      root: string;
    };
    expect(view.diagnostics).toEqual([]);
    expect([...view.skills].sort()).toEqual(['documents-docx', 'documents-pdf', 'documents-pptx', 'documents-xlsx']);
    expect(view.mcpServers).toEqual([
      expect.objectContaining({ name: 'documents', enabled: true, runsAs: 'plugin-jarvis-documents_documents' }),
    ]);

    const server = join(dirs.home, 'plugins/managed/jarvis-documents/bin/server.mjs');
    expect(existsSync(server)).toBe(true);
    expect(statSync(server).mode & 0o111).not.toBe(0);
    const client = new Client({ name: 'install-test', version: '1.0.1' });
    // As Jarvis starts plugin servers: in the plugin root, with the session's folder in JARVIS_PROJECT_DIR.
    const root = join(dirs.home, 'plugins/managed/jarvis-documents');
    await client.connect(
      new StdioClientTransport({
        command: server,
        cwd: root,
        stderr: 'ignore',
        env: { PATH: process.env.PATH ?? '', JARVIS_PROJECT_DIR: dirs.cwd },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual([
        'create_docx',
        'create_pdf',
        'create_pptx',
        'create_xlsx',
        'edit_docx',
        'edit_pdf',
        'edit_pptx',
        'edit_xlsx',
        'inspect_document',
        'render_document',
        'validate_document',
      ]);
      const result = await client.callTool({
        name: 'create_xlsx',
        arguments: {
          path: 'out/numbers.xlsx',
          sheets: [
            {
              name: 'S',
              rows: [
                ['a', 1],
                ['b', '=B1*2'],
              ],
            },
          ],
        },
      });
      expect(result.isError).toBeFalsy();
      expect(existsSync(join(dirs.cwd, 'out/numbers.xlsx'))).toBe(true);
      const report = await client.callTool({ name: 'validate_document', arguments: { path: 'out/numbers.xlsx' } });
      expect((report.content as { text: string }[])[0].text).toMatch(/^VALID XLSX/);
    } finally {
      await client.close();
    }
  });
});
