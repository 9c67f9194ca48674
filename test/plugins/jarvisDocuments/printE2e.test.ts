// End to end: `jarvis -p` with a fresh JARVIS_CODE_HOME installs the bundled jarvis-documents at start-up,
// starts its MCP server from the managed copy, and the (mock) model's call of the create tool writes a
// document in the session's folder that validates.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../../helpers/cli';
import { DocumentsServer } from '../../helpers/documentsServer';
import { startMockModelServer, type MockModelServer } from '../../helpers/mockModelServer';

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModelServer();
});
afterAll(async () => {
  await model.close();
});

const CREATE = 'mcp__plugin-jarvis-documents_documents__create_docx';

describe('jarvis -p with the bundled jarvis-documents', { timeout: 120_000 }, () => {
  it('installs it at start-up and the model creates a valid DOCX with its tool', async () => {
    const dirs = makeCliDirs();
    model.push(
      {
        toolCalls: [
          {
            id: 'call_doc',
            name: CREATE,
            arguments: {
              path: 'notes/minutes.docx',
              blocks: [
                { type: 'heading', text: 'Minutes', level: 1 },
                { type: 'bullets', items: ['Budget approved', 'Launch on Monday'] },
              ],
            },
          },
        ],
      },
      { text: 'The minutes are in notes/minutes.docx.' },
    );
    const r = await runJarvis(['-p', 'write the meeting minutes as a Word file'], {
      env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 90_000,
    });
    expect(r.stderr).not.toMatch(/warning|error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('The minutes are in notes/minutes.docx.');
    const installed = JSON.parse(readFileSync(join(dirs.home, 'plugins/installed.json'), 'utf8')) as
      { plugins: { id: string }[] } | { id: string }[];
    expect(JSON.stringify(installed)).toContain('"jarvis-documents"');
    // The plugin's skills are listed in the system prompt (its instructions come with them when one loads);
    // its tool answered with the validation.
    const first = model.requests.at(-2)!.body;
    expect(JSON.stringify(first.messages[0])).toContain('- documents-docx: Create or edit Word (.docx) documents.');
    const result = model.requests
      .at(-1)!
      .body.messages.find(
        (m: { role: string; tool_call_id?: string }) => m.role === 'tool' && m.tool_call_id === 'call_doc',
      );
    expect(result.content).toContain('VALID DOCX');
    const file = join(dirs.cwd, 'notes/minutes.docx');
    expect(existsSync(file)).toBe(true);

    const server = await DocumentsServer.start();
    try {
      expect(await server.ok('validate_document', { path: file })).toMatch(/^VALID DOCX/);
      expect(await server.ok('inspect_document', { path: file })).toContain('[1] paragraph (Heading1): Minutes');
    } finally {
      await server.close();
    }
  });
});
