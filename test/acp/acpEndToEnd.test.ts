// `jarvis acp` end to end: the built CLI spawned and driven by the ACP SDK's client side, as an editor
// drives it, against the loopback mock model (docs/acp.md).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, waitUntil, type CliDirs } from '../helpers/cli';
import { agentText, startAcpClient, type AcpTestClient } from '../helpers/acpClient';

let server: MockModelServer;
let dirs: CliDirs;
let editor: AcpTestClient;

function updatesOf(sessionId: string, kind: SessionNotification['update']['sessionUpdate']) {
  return editor.updates
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === kind)
    .map((u) => u.update);
}

beforeAll(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  editor = await startAcpClient({ env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
});

afterAll(async () => {
  await editor?.close();
  await server.close();
  rmSync(join(dirs.home, '..'), { recursive: true, force: true });
});

describe('jarvis acp', () => {
  it('answers initialize with its info, capabilities and login method', () => {
    const init = editor.initialized;
    expect(init.agentInfo?.name).toBe('jarvis');
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {} },
    });
    expect(init.authMethods?.map((m) => m.id)).toEqual(['login']);
  });

  it('streams a prompt as agent_message_chunk updates and ends the turn', async () => {
    const reply = 'Hello from the mock model, streamed in several pieces.';
    server.push({ text: reply });
    const { sessionId, modes, configOptions } = await editor.connection.agent.request('session/new', {
      cwd: dirs.cwd,
      mcpServers: [],
    });
    expect(modes?.currentModeId).toBe('manual');
    expect(configOptions?.map((o) => o.id)).toEqual(expect.arrayContaining(['mode', 'model']));
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'say hello' }],
    });
    expect(response.stopReason).toBe('end_turn');
    expect(updatesOf(sessionId, 'agent_message_chunk').length).toBeGreaterThan(1);
    expect(agentText(editor.updates, sessionId)).toBe(reply);
    await waitUntil(() => updatesOf(sessionId, 'available_commands_update').length > 0, 10_000, 'the slash commands');
  });

  it('asks permission for a Write through the client and applies it when allowed', async () => {
    server.push(
      {
        toolCalls: [
          { id: 'write-1', name: 'Write', arguments: { path: 'allowed.txt', content: 'written after approval\n' } },
        ],
      },
      { text: 'Wrote it.' },
    );
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    editor.answerPermissions('allow_once');
    const before = editor.permissionRequests.length;
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write allowed.txt' }],
    });
    expect(response.stopReason).toBe('end_turn');
    const asked = editor.permissionRequests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      sessionId,
      toolCall: { toolCallId: 'write-1', kind: 'edit', title: 'Write allowed.txt' },
    });
    expect(asked[0].options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect(readFileSync(join(dirs.cwd, 'allowed.txt'), 'utf8')).toBe('written after approval\n');
    const done = updatesOf(sessionId, 'tool_call_update').find(
      (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed',
    );
    expect(done).toMatchObject({
      toolCallId: 'write-1',
      content: [{ type: 'diff', path: join(dirs.cwd, 'allowed.txt'), newText: 'written after approval\n' }],
    });
  });

  it('does not apply a Write the client rejects', async () => {
    // A rejection without feedback stops the turn (docs/approvals.md): the model is not asked again.
    server.push({
      toolCalls: [{ id: 'write-2', name: 'Write', arguments: { path: 'rejected.txt', content: 'must not exist' } }],
    });
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    editor.answerPermissions('reject');
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write rejected.txt' }],
    });
    expect(response.stopReason).toBe('end_turn');
    expect(existsSync(join(dirs.cwd, 'rejected.txt'))).toBe(false);
    expect(server.remaining()).toBe(0);
    expect(updatesOf(sessionId, 'tool_call_update')).toContainEqual(
      expect.objectContaining({ toolCallId: 'write-2', status: 'failed' }),
    );
  });

  it('cancels a turn mid-stream: the prompt ends with stopReason cancelled', async () => {
    server.push({
      text: 'This answer streams slowly, one small piece at a time, long enough to be stopped. '.repeat(3),
      chunkDelayMs: 150,
    });
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    const prompt = editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'talk slowly' }],
    });
    await waitUntil(() => updatesOf(sessionId, 'agent_message_chunk').length > 0, 15_000, 'the first chunk');
    await editor.connection.agent.notify('session/cancel', { sessionId });
    const response = await prompt;
    expect(response.stopReason).toBe('cancelled');
    expect(agentText(editor.updates, sessionId).length).toBeLessThan(240);
  });

  it('switches modes through config options and passes embedded resources to the model', async () => {
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    const set = await editor.connection.agent.request('session/set_config_option', {
      sessionId,
      configId: 'mode',
      value: 'yolo',
    });
    expect(set.configOptions.find((o) => o.id === 'mode')).toMatchObject({ currentValue: 'yolo' });
    await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    await waitUntil(
      () =>
        updatesOf(sessionId, 'current_mode_update').some(
          (u) => u.sessionUpdate === 'current_mode_update' && u.currentModeId === 'plan',
        ),
      10_000,
      'plan mode',
    );
    await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'manual' });
    await expect(
      editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'reckless' }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      editor.connection.agent.request('session/set_config_option', {
        sessionId,
        configId: 'model',
        value: 'no-such-alias',
      }),
    ).rejects.toMatchObject({ code: -32602 });

    server.push({ text: 'Seen.' });
    await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'summarise the notes' },
        { type: 'resource', resource: { uri: 'file:///notes/todo.md', text: '- ship ACP' } },
      ],
    });
    const sent = JSON.stringify((server.requests[server.requests.length - 1].body as { messages: unknown[] }).messages);
    expect(sent).toContain('<resource uri=\\"file:///notes/todo.md\\">\\n- ship ACP\\n</resource>');
  });

  it('asks AskUserQuestion through session/request_permission and gives the model the answer', async () => {
    server.push(
      {
        thinking: 'I should ask which database to use.',
        toolCalls: [
          {
            id: 'ask-1',
            name: 'AskUserQuestion',
            arguments: {
              questions: [
                {
                  question: 'Which database?',
                  header: 'DB',
                  options: [
                    { label: 'SQLite', description: 'a file' },
                    { label: 'Postgres', description: 'a server' },
                  ],
                },
              ],
            },
          },
        ],
      },
      { text: 'Postgres it is.' },
    );
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    editor.answerPermissions('option-1');
    const before = editor.permissionRequests.length;
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'set up storage' }],
    });
    expect(response.stopReason).toBe('end_turn');
    const asked = editor.permissionRequests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0].toolCall.title).toBe('DB: Which database?');
    expect(asked[0].options.map((o) => o.optionId)).toEqual(['option-0', 'option-1', 'skip']);
    expect(JSON.stringify(server.requests[server.requests.length - 1].body)).toContain('Postgres');
    expect(updatesOf(sessionId, 'agent_thought_chunk').length).toBeGreaterThan(0);
    expect(agentText(editor.updates, sessionId)).toBe('Postgres it is.');
  });

  it("shows a subagent's tool calls and asks its approvals through the client", async () => {
    server.push(
      {
        toolCalls: [
          { id: 'delegate', name: 'Agent', arguments: { prompt: 'create sub.txt', description: 'write a file' } },
        ],
      },
      { toolCalls: [{ id: 'write-sub', name: 'Write', arguments: { path: 'sub.txt', content: 'from the subagent' } }] },
      { text: 'Created sub.txt.' },
      { text: 'The subagent wrote it.' },
    );
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    editor.answerPermissions('allow_once');
    const before = editor.permissionRequests.length;
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'delegate it' }],
    });
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(dirs.cwd, 'sub.txt'), 'utf8')).toBe('from the subagent');
    const asked = editor.permissionRequests.slice(before);
    expect(asked).toHaveLength(1);
    const subCallId = String(asked[0].toolCall.toolCallId);
    expect(subCallId).toMatch(/^.+\/write-sub$/);
    expect(asked[0].toolCall.title).toBe(`${subCallId.split('/')[0]}: Write sub.txt`);
    const calls = updatesOf(sessionId, 'tool_call').map((u) => (u.sessionUpdate === 'tool_call' ? u.toolCallId : ''));
    expect(calls).toEqual(['delegate', subCallId]);
    expect(updatesOf(sessionId, 'tool_call_update')).toContainEqual(
      expect.objectContaining({ toolCallId: subCallId, status: 'completed' }),
    );
    expect(agentText(editor.updates, sessionId)).toBe('The subagent wrote it.');
  });

  it('refuses unknown auth methods and methods it does not implement', async () => {
    await expect(editor.connection.agent.request('authenticate', { methodId: 'nope' })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(editor.connection.agent.request('authenticate', { methodId: 'login' })).resolves.toEqual({});
    const fork = editor.connection.agent.request('session/fork', { sessionId: 'x', cwd: dirs.cwd, mcpServers: [] });
    await expect(fork).rejects.toMatchObject({ code: -32601 });
    await expect(
      editor.connection.agent.request('session/prompt', { sessionId: 'no-such-session', prompt: [] }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it('lists the sessions of the folder, and a new editor process loads one with its history replayed', async () => {
    const streamed = editor.updates.find((u) => u.update.sessionUpdate === 'agent_message_chunk')!.sessionId;
    const { sessions } = await editor.connection.agent.request('session/list', { cwd: dirs.cwd });
    expect(sessions.map((s) => s.sessionId)).toContain(streamed);
    expect(sessions.find((s) => s.sessionId === streamed)).toMatchObject({ cwd: dirs.cwd, title: 'say hello' });

    await editor.close();
    editor = await startAcpClient({ env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
    const loaded = await editor.connection.agent.request('session/load', {
      sessionId: streamed,
      cwd: dirs.cwd,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe('manual');
    const replay = editor.updates.filter((u) => u.sessionId === streamed).map((u) => u.update);
    expect(replay[0]).toEqual({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'say hello' } });
    expect(agentText(editor.updates, streamed)).toBe('Hello from the mock model, streamed in several pieces.');

    // The loaded session goes on where it was: the model sees the earlier turn.
    server.push({ text: 'Still here.' });
    await editor.connection.agent.request('session/prompt', {
      sessionId: streamed,
      prompt: [{ type: 'text', text: 'again' }],
    });
    const last = server.requests[server.requests.length - 1].body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    expect(JSON.stringify(last.messages)).toContain('say hello');
  });

  it('loading a session that does not exist is a resource-not-found error', async () => {
    await expect(
      editor.connection.agent.request('session/load', { sessionId: '01NOTTHERE', cwd: dirs.cwd, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it('writes nothing but JSON-RPC messages on stdout', () => {
    const lines = editor
      .rawStdout()
      .split('\n')
      .filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });
});

describe('jarvis acp with an editor that offers its files', () => {
  it('sends a Write to the client (fs/write_text_file) instead of the disk', async () => {
    const buffers = new Map<string, string>();
    const fsEditor = await startAcpClient({
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      capabilities: { fs: { readTextFile: true, writeTextFile: true } },
      buffers,
    });
    try {
      server.push(
        {
          toolCalls: [
            { id: 'write-fs', name: 'Write', arguments: { path: 'in-editor.txt', content: 'goes to the buffer' } },
          ],
        },
        { text: 'Done.' },
      );
      const { sessionId } = await fsEditor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
      await fsEditor.connection.agent.request('session/set_mode', { sessionId, modeId: 'auto' });
      const response = await fsEditor.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'write in-editor.txt' }],
      });
      expect(response.stopReason).toBe('end_turn');
      expect(fsEditor.writes).toEqual([
        { sessionId, path: join(dirs.cwd, 'in-editor.txt'), content: 'goes to the buffer' },
      ]);
      expect(fsEditor.permissionRequests).toEqual([]);
      expect(existsSync(join(dirs.cwd, 'in-editor.txt'))).toBe(false);

      // A session the first editor has open cannot be loaded by a second process: one writer per session.
      const open = editor.updates.find((u) => u.update.sessionUpdate === 'user_message_chunk')!.sessionId;
      await expect(
        fsEditor.connection.agent.request('session/load', { sessionId: open, cwd: dirs.cwd, mcpServers: [] }),
      ).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining(`in use by another jarvis process (pid ${editor.child.pid}`),
      });
      await expect(
        fsEditor.connection.agent.request('session/new', { cwd: join(dirs.cwd, 'missing'), mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32602 });
      await expect(
        fsEditor.connection.agent.request('session/new', { cwd: 'relative/path', mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await fsEditor.close();
    }
  });
});

describe('jarvis acp without model credentials', () => {
  it('answers session/new with "authentication required" (-32000) and says what to configure', async () => {
    const bare = makeCliDirs();
    const noModel = await startAcpClient({ env: cliEnv(bare), cwd: bare.cwd });
    try {
      await expect(noModel.connection.agent.request('authenticate', { methodId: 'login' })).rejects.toMatchObject({
        code: -32000,
      });
      await expect(
        noModel.connection.agent.request('session/new', { cwd: bare.cwd, mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32000 });
    } finally {
      await noModel.close();
      rmSync(join(bare.home, '..'), { recursive: true, force: true });
    }
  });
});
