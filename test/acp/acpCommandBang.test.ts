// `jarvis acp`: a Claude Code command's !`cmd` lines run before its prompt is sent through `session/prompt`
// (docs/plugins.md, "Claude Code plugins"): a line its `allowed-tools` covers runs without a permission request
// and its real output reaches the model; a line it does not cover asks the editor, and a rejection is sent as
// the "declined" text — the command never ran.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginManager } from '../../src/ext/plugins/manager';
import { startAcpClient, type AcpTestClient } from '../helpers/acpClient';
import { cliEnv, makeCliDirs, mockModelEnv, waitUntil } from '../helpers/cli';
import { tempDir } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
let editor: AcpTestClient;
let cwd: string;

const STATUS = `---
allowed-tools: Bash(git status:*)
description: Status and a marker
---
Status: !\`git status --short\`
Marker: !\`touch marker.txt\`
`;

beforeAll(async () => {
  server = await startMockModelServer();
  const dirs = makeCliDirs();
  cwd = dirs.cwd;
  const root = join(tempDir(), 'gitflow');
  mkdirSync(join(root, '.claude-plugin'), { recursive: true });
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'gitflow', version: '1.0.0' }));
  writeFileSync(join(root, 'commands/status.md'), STATUS);
  await new PluginManager({ home: dirs.home, env: {} }).install(root);
  execFileSync('git', ['init', '-q'], { cwd });
  writeFileSync(join(cwd, 'untracked-file.ts'), 'export {};\n');
  editor = await startAcpClient({ env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd });
});

afterAll(async () => {
  await editor?.close();
  await server?.close();
});

describe('jarvis acp: a command with !`cmd` lines', () => {
  it('runs the covered line, asks for the other, and sends the output and the declined text', async () => {
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd, mcpServers: [] });
    const commands = () =>
      editor.updates.flatMap((u) =>
        u.sessionId === sessionId && u.update.sessionUpdate === 'available_commands_update'
          ? u.update.availableCommands.map((c) => c.name)
          : [],
      );
    await waitUntil(() => commands().includes('gitflow:status'), 10_000, 'the plugin command');
    editor.answerPermissions('reject');
    server.push({ text: 'seen' });
    const before = server.requests.length;
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/gitflow:status' }],
    });
    expect(response.stopReason).toBe('end_turn');
    const prompt = JSON.stringify(server.requests[before].body.messages.at(-1));
    expect(prompt).toContain('?? untracked-file.ts');
    expect(prompt).toContain('Marker: [!`touch marker.txt` was not run: the user declined it]');
    expect(editor.permissionRequests.map((r) => r.toolCall.title ?? '')).toEqual([
      expect.stringContaining('touch marker.txt'),
    ]);
    expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
  });
});
