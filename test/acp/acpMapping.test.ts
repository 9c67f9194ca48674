// The ACP front end's pure parts: prompts to engine content, engine events and stored history to
// session updates, the editor's MCP servers, and questions forwarded as permission requests.
import { describe, expect, it } from 'vitest';
import type { PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { QuestionQueue } from '../../src/engine/runtime/questionQueue';
import { editorMcpServers, joinMcpServers } from '../../src/acp/mcpServers';
import {
  acpApprovalPort,
  acpInteractionPort,
  startDue,
  type PendingPermission,
  type PermissionRequester,
} from '../../src/acp/permissions';
import { promptInput } from '../../src/acp/promptContent';
import { EventMapper, historyUpdates } from '../../src/acp/sessionUpdates';
import { applyThinking, configOptions, modeState } from '../../src/acp/sessionOptions';
import { runSlashCommand } from '../../src/acp/slashCommands';
import { toolTitle } from '../../src/acp/toolCalls';
import type { ApprovalRequest } from '../../src/engine/policy/approvals';

describe('prompt content', () => {
  it('inlines text resources, links resource links, keeps images and drops blobs and audio with warnings', () => {
    const input = promptInput([
      { type: 'text', text: 'look at this' },
      { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'export const a = 1;' } },
      { type: 'resource_link', uri: 'file:///w/b.ts', name: 'b.ts' },
      { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
      { type: 'resource', resource: { uri: 'file:///w/c.bin', blob: 'AAAA' } },
      { type: 'audio', mimeType: 'audio/wav', data: 'UklG' },
    ]);
    expect(input.content).toEqual([
      { type: 'text', text: 'look at this' },
      { type: 'text', text: '<resource uri="file:///w/a.ts">\nexport const a = 1;\n</resource>' },
      { type: 'text', text: '<resource_link uri="file:///w/b.ts" name="b.ts" />' },
      { type: 'image', mediaType: 'image/png', data: 'iVBOR' },
    ]);
    expect(input.warnings).toHaveLength(2);
    expect(input.warnings[0]).toContain('file:///w/c.bin');
    expect(input.warnings[1]).toContain('audio');
  });
});

describe('session updates', () => {
  it('maps streaming, a tool call, its progress and its diff result', () => {
    const m = new EventMapper('/w');
    const agentId = 'main';
    expect(m.map({ type: 'text_delta', delta: 'Hi', agentId })).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } },
    ]);
    expect(m.map({ type: 'thinking_delta', delta: 'hmm', agentId })[0].sessionUpdate).toBe('agent_thought_chunk');
    expect(
      m.map({
        type: 'tool_call',
        call: { id: 'c1', name: 'Edit', arguments: '{"path":"src/a.ts","old_string":"a","new_string":"b"}' },
        subject: 'Edit(/w/src/a.ts)',
        agentId,
      }),
    ).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'Edit src/a.ts',
        kind: 'edit',
        status: 'pending',
        rawInput: { path: 'src/a.ts', old_string: 'a', new_string: 'b' },
        locations: [{ path: '/w/src/a.ts' }],
      },
    ]);
    expect(
      m.map({
        type: 'approval_decision',
        callId: 'c1',
        subject: 'Edit(/w/src/a.ts)',
        decision: 'allow',
        by: 'user',
        agentId,
      }),
    ).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' }]);
    expect(m.map({ type: 'tool_progress', callId: 'c1', progress: { text: 'x' }, agentId })).toEqual([]);
    const [done] = m.map({
      type: 'tool_result',
      callId: 'c1',
      toolName: 'Edit',
      text: 'Edited',
      isError: false,
      display: { kind: 'diff', path: '/w/src/a.ts', before: 'a', after: 'b' },
      agentId,
    });
    expect(done).toMatchObject({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'completed',
      content: [{ type: 'diff', path: '/w/src/a.ts', oldText: 'a', newText: 'b' }],
    });
    expect(
      m.map({
        type: 'todos',
        todos: [
          { title: 'one', status: 'done' },
          { title: 'two', status: 'pending' },
        ],
        agentId,
      }),
    ).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'one', priority: 'medium', status: 'completed' },
          { content: 'two', priority: 'medium', status: 'pending' },
        ],
      },
    ]);
    expect(m.map({ type: 'notice', level: 'info', text: 'fyi', agentId })).toEqual([]);
  });

  it("shows a subagent's tool calls under its name and ids, but not its text", () => {
    const m = new EventMapper('/w');
    const agentId = 'coder-1';
    expect(m.map({ type: 'text_delta', delta: 'sub text', agentId })).toEqual([]);
    expect(
      m.map({
        type: 'tool_call',
        call: { id: 'c1', name: 'Bash', arguments: '{"command":"ls"}' },
        subject: 'Bash(ls)',
        agentId,
      }),
    ).toEqual([
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: 'coder-1/c1',
        title: 'coder-1: Bash: ls',
        kind: 'execute',
      }),
    ]);
    expect(
      m.map({ type: 'tool_result', callId: 'c1', toolName: 'Bash', text: 'a.ts', isError: false, agentId }),
    ).toEqual([expect.objectContaining({ toolCallId: 'coder-1/c1', status: 'completed' })]);
  });

  it('replays history without the notifications the engine delivered as user messages', () => {
    const updates = historyUpdates(
      [
        { role: 'user', content: [{ type: 'text', text: 'fix it' }] },
        {
          role: 'assistant',
          text: 'Reading.',
          thinking: [{ text: 'plan' }],
          toolCalls: [{ id: 't1', name: 'Bash', arguments: '{"command":"npm test"}' }],
        },
        { role: 'tool', toolCallId: 't1', toolName: 'Bash', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: [{ type: 'text', text: '<system-notification>\ntask done\n</system-notification>' }] },
      ],
      [],
      '/w',
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
    ]);
    expect(updates[3]).toMatchObject({ title: 'Bash: npm test', kind: 'execute' });
    expect(updates[4]).toMatchObject({ toolCallId: 't1', status: 'completed' });
  });

  it('titles say what a call does', () => {
    expect(toolTitle('Grep', { pattern: 'TODO', path: 'src' }, '/w')).toBe('Grep "TODO" in src');
    expect(toolTitle('Read', { path: '/elsewhere/x.ts' }, '/w')).toBe('Read /elsewhere/x.ts');
    expect(toolTitle('FetchURL', { url: 'https://example.test/' }, '/w')).toBe('FetchURL: https://example.test/');
    expect(toolTitle('TodoList', {}, '/w')).toBe('TodoList');
  });
});

describe("the editor's MCP servers", () => {
  const defaults = { startupTimeoutMs: 1000, toolTimeoutMs: 2000 };
  it('maps stdio, http and sse and drops another transport with a warning', () => {
    const { servers, warnings } = editorMcpServers(
      [
        { name: 'fs', command: 'mcp-fs', args: ['--root', '/w'], env: [{ name: 'TOKEN', value: 't' }] },
        {
          type: 'http',
          name: 'web',
          url: 'http://127.0.0.1:9/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer x' }],
        },
        { type: 'sse', name: 'old', url: 'http://127.0.0.1:9/sse', headers: [] },
        { type: 'acp', name: 'inproc', id: 'x' } as never,
      ],
      defaults,
    );
    expect(servers.map((s) => [s.name, s.transport])).toEqual([
      ['fs', 'stdio'],
      ['web', 'http'],
      ['old', 'sse'],
    ]);
    expect(servers[0]).toMatchObject({
      command: 'mcp-fs',
      args: ['--root', '/w'],
      env: { TOKEN: 't' },
      startupTimeoutMs: 1000,
    });
    expect(servers[1].headers).toEqual({ Authorization: 'Bearer x' });
    expect(warnings).toEqual([expect.stringContaining('"inproc"')]);
    expect(warnings[0]).toContain('"acp"');
    const joined = joinMcpServers(
      [
        { ...servers[1], url: 'http://configured' },
        { ...servers[2], name: 'kept' },
      ],
      servers.slice(0, 2),
    );
    expect(joined.map((s) => s.name)).toEqual(['kept', 'fs', 'web']);
  });
});

interface Asked {
  toolCall: ToolCallUpdate;
  options: PermissionOption[];
  signal: AbortSignal;
}

function editorAnswering(answers: Array<string | undefined>): { asked: Asked[]; requester: PermissionRequester } {
  const asked: Asked[] = [];
  return {
    asked,
    requester: async (toolCall, options, signal) => {
      asked.push({ toolCall, options, signal });
      return answers.shift();
    },
  };
}

function queue(): QuestionQueue<PendingPermission> {
  return new QuestionQueue<PendingPermission>((q) => startDue(q, false));
}

const writeRequest: ApprovalRequest = {
  callId: 'w1',
  toolName: 'Write',
  subject: 'Write(/w/a.txt)',
  sessionPattern: 'Write(/w/**)',
  args: { path: 'a.txt', content: 'x' },
  accesses: [{ kind: 'write', path: '/w/a.txt' }],
  reason: 'writes a file',
  preview: { kind: 'diff', path: '/w/a.txt', before: '', after: 'x' },
};

describe('questions forwarded as permission requests', () => {
  it('approvals: once, for the session, reject, and a cancelled request rejects', async () => {
    const editor = editorAnswering(['allow_once', 'allow_session', 'reject', undefined]);
    const port = acpApprovalPort(queue(), editor.requester, '/w');
    const signal = new AbortController().signal;
    expect(await port.ask(writeRequest, signal)).toEqual({ decision: 'approve' });
    expect(await port.ask(writeRequest, signal)).toEqual({ decision: 'approve_session' });
    expect(await port.ask(writeRequest, signal)).toEqual({ decision: 'reject' });
    expect(await port.ask(writeRequest, signal)).toEqual({ decision: 'reject' });
    expect(editor.asked[0].toolCall).toMatchObject({
      toolCallId: 'w1',
      title: 'Write a.txt',
      kind: 'edit',
      content: [{ type: 'diff', newText: 'x' }, { type: 'content' }],
    });
    expect(editor.asked[0].options[1].name).toContain('Write(/w/**)');
  });

  it("a subagent's approval names the agent and uses the id its tool call was shown with", async () => {
    const editor = editorAnswering(['allow_once']);
    await acpApprovalPort(queue(), editor.requester, '/w').ask(
      { ...writeRequest, agentId: 'coder-1' },
      new AbortController().signal,
    );
    expect(editor.asked[0].toolCall).toMatchObject({ toolCallId: 'coder-1/w1', title: 'coder-1: Write a.txt' });
  });

  it('an editor that fails to answer (connection gone) is a rejection', async () => {
    const port = acpApprovalPort(queue(), () => Promise.reject(new Error('closed')), '/w');
    expect(await port.ask(writeRequest, new AbortController().signal)).toEqual({ decision: 'reject' });
  });

  it('an aborted turn withdraws the question and cancels the editor request', async () => {
    const pending: Asked[] = [];
    const requester: PermissionRequester = (toolCall, options, signal) =>
      new Promise((resolve) => {
        pending.push({ toolCall, options, signal });
        signal.addEventListener('abort', () => resolve(undefined));
      });
    const turn = new AbortController();
    const answer = acpApprovalPort(queue(), requester, '/w').ask(writeRequest, turn.signal);
    turn.abort();
    expect(await answer).toEqual({ decision: 'reject' });
    expect(pending[0].signal.aborted).toBe(true);
  });

  it('AskUserQuestion: one request per question, Other left out, Skip and dismiss', async () => {
    const editor = editorAnswering(['option-1', 'skip']);
    const port = acpInteractionPort(queue(), editor.requester);
    const response = await port.askQuestions(
      {
        background: false,
        questions: [
          {
            question: 'Which database?',
            header: 'DB',
            multiSelect: false,
            options: [
              { label: 'SQLite', description: 'file' },
              { label: 'Postgres', description: 'server' },
              { label: 'Other', description: '' },
            ],
          },
          {
            question: 'Add tests?',
            multiSelect: false,
            options: [
              { label: 'Yes', description: '' },
              { label: 'Other', description: '' },
            ],
          },
        ],
      },
      new AbortController().signal,
    );
    expect(response).toEqual({
      answers: [
        { question: 'Which database?', kind: 'single', selected: ['Postgres'] },
        { question: 'Add tests?', kind: 'skipped', selected: [] },
      ],
    });
    expect(editor.asked[0].options.map((o) => o.optionId)).toEqual(['option-0', 'option-1', 'skip']);
    expect(editor.asked[0].toolCall.title).toBe('DB: Which database?');
    const dismissed = await acpInteractionPort(queue(), editorAnswering([undefined]).requester).askQuestions(
      { background: false, questions: [{ question: 'q', multiSelect: false, options: [] }] },
      new AbortController().signal,
    );
    expect(dismissed).toEqual({ dismissed: true });
  });

  it('plan review: approve, approve an alternative, reject, reject and exit', async () => {
    const request = {
      planPath: '/h/plans/p.md',
      plan: '# Plan\n1. do it',
      options: [
        { label: 'Fast', description: '' },
        { label: 'Safe', description: '' },
      ],
    };
    const editor = editorAnswering(['approve', 'approve-1', 'reject', 'reject_and_exit']);
    const port = acpInteractionPort(queue(), editor.requester);
    const signal = new AbortController().signal;
    expect(await port.reviewPlan(request, signal)).toEqual({ decision: 'approve' });
    expect(await port.reviewPlan(request, signal)).toEqual({ decision: 'approve', option: 'Safe' });
    expect(await port.reviewPlan(request, signal)).toEqual({ decision: 'reject' });
    expect(await port.reviewPlan(request, signal)).toEqual({ decision: 'reject_and_exit' });
    expect(editor.asked[0].toolCall).toMatchObject({
      kind: 'switch_mode',
      locations: [{ path: '/h/plans/p.md' }],
      content: [{ type: 'content', content: { type: 'text', text: '# Plan\n1. do it' } }],
    });
  });

  it('asks one question at a time, in order', async () => {
    const releases: Array<(id: string) => void> = [];
    const asked: string[] = [];
    const requester: PermissionRequester = (toolCall) =>
      new Promise((resolve) => {
        asked.push(String(toolCall.toolCallId));
        releases.push(resolve);
      });
    const port = acpApprovalPort(queue(), requester, '/w');
    const signal = new AbortController().signal;
    const first = port.ask({ ...writeRequest, callId: 'a' }, signal);
    const second = port.ask({ ...writeRequest, callId: 'b' }, signal);
    expect(asked).toEqual(['a']);
    releases[0]('allow_once');
    expect(await first).toEqual({ decision: 'approve' });
    expect(asked).toEqual(['a', 'b']);
    releases[1]('reject');
    expect(await second).toEqual({ decision: 'reject' });
  });
});

describe('slash commands', () => {
  it('runs /compact with its instruction and /plan; other text is a prompt', async () => {
    let instruction: string | undefined = 'unset';
    let plan = false;
    const actions = {
      compact: async (i: string | undefined) => {
        instruction = i;
        return {
          trigger: 'manual' as const,
          summary: 's',
          tokensBefore: 900,
          tokensAfter: 100,
          summarised: 6,
          kept: 2,
        };
      },
      togglePlan: () => (plan = !plan),
    };
    expect(await runSlashCommand('/compact keep the API notes', actions)).toContain('6 messages summarised');
    expect(instruction).toBe('keep the API notes');
    expect(await runSlashCommand('/plan', actions)).toBe('Plan mode is on: read and plan only.');
    expect(await runSlashCommand('/review this', actions)).toBeUndefined();
    expect(await runSlashCommand('fix /plan handling', actions)).toBeUndefined();
  });
});

describe('modes and config options', () => {
  const model = (capabilities: string[]) =>
    ({ alias: 'main', capabilities }) as unknown as import('../../src/llm/types').ResolvedModel;

  it('offers thinking only for models that think, without "off" for always-thinking ones', () => {
    const base = {
      mode: 'manual' as const,
      planMode: false,
      modelAliases: ['main', 'fast'],
      thinking: { enabled: true },
    };
    expect(configOptions({ ...base, model: model([]) }).map((o) => o.id)).toEqual(['mode', 'model']);
    const thinking = configOptions({ ...base, model: model(['thinking']) }).find((o) => o.id === 'thinking');
    expect(thinking).toMatchObject({ currentValue: 'default', category: 'thought_level' });
    const always = configOptions({ ...base, model: model(['always_thinking']) }).find((o) => o.id === 'thinking');
    expect(always?.type === 'select' && always.options.map((o) => ('value' in o ? o.value : '')).includes('off')).toBe(
      false,
    );
  });

  it('plan mode is the current mode while it is on; an env-only model is listed with the aliases', () => {
    expect(modeState({ mode: 'yolo', planMode: true }).currentModeId).toBe('plan');
    const options = configOptions({
      mode: 'auto',
      planMode: false,
      model: { ...model([]), alias: 'env-model' },
      modelAliases: ['main'],
      thinking: { enabled: false },
    });
    expect(options.find((o) => o.id === 'mode')).toMatchObject({ currentValue: 'auto' });
    expect(options.find((o) => o.id === 'model')).toMatchObject({
      currentValue: 'env-model',
      options: [{ value: 'env-model' }, { value: 'main' }],
    });
  });

  it('applies thinking values to the settings the agent reads, and refuses unknown ones', () => {
    const settings: { enabled: boolean; effort?: string } = { enabled: true };
    expect(applyThinking(settings, 'high')).toBe(true);
    expect(settings).toEqual({ enabled: true, effort: 'high' });
    expect(applyThinking(settings, 'off')).toBe(true);
    expect(settings).toEqual({ enabled: false, effort: undefined });
    expect(applyThinking(settings, 'ludicrous')).toBe(false);
  });
});
