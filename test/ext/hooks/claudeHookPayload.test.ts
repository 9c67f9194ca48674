// What a Claude Code hook reads: Claude Code's base fields and each tool under Claude Code's name and field names
// (docs/hooks.md, "Claude Code hooks").
import { describe, expect, it } from 'vitest';
import { claudePayload, claudePermissionMode } from '../../../src/ext/hooks/claudeHookPayload';

const facts = { sessionId: 's1', cwd: '/repo', transcriptPath: '/data/t.jsonl', permissionMode: 'default' };
const pre = (tool: string, args: unknown) =>
  claudePayload('PreToolUse', facts, { tool_name: tool, tool_input: args, tool_call_id: 'c1' });

describe('claudePayload', () => {
  it('carries the base fields; no Jarvis-only ones', () => {
    const p = claudePayload('UserPromptSubmit', facts, { prompt: 'hi', is_steer: false });
    expect(p).toMatchObject({
      session_id: 's1',
      transcript_path: '/data/t.jsonl',
      cwd: '/repo',
      permission_mode: 'default',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hi',
    });
    expect(p.client_type).toBeUndefined();
  });

  it.each([
    [
      'Write',
      { path: 'src/a.ts', content: 'x', mode: 'overwrite' },
      'Write',
      { file_path: '/repo/src/a.ts', content: 'x' },
    ],
    [
      'Edit',
      { path: '/abs/b.ts', old_string: 'a', new_string: 'b', replace_all: false },
      'Edit',
      { file_path: '/abs/b.ts', old_string: 'a', new_string: 'b', replace_all: false },
    ],
    [
      'Read',
      { path: 'README.md', line_offset: 10, n_lines: 5 },
      'Read',
      { file_path: '/repo/README.md', offset: 10, limit: 5 },
    ],
    [
      'Bash',
      { command: 'npm test', cwd: 'x', timeout: 1000, run_in_background: false, dangerously_unsandboxed: false },
      'Bash',
      {
        command: 'npm test',
        timeout: 1000,
        run_in_background: false,
      },
    ],
    [
      'Grep',
      { pattern: 'TODO', output_mode: 'count_matches', '-i': true, path: 'src' },
      'Grep',
      {
        pattern: 'TODO',
        output_mode: 'count',
        '-i': true,
        path: '/repo/src',
      },
    ],
    ['FetchURL', { url: 'https://x.example' }, 'WebFetch', { url: 'https://x.example' }],
    [
      'Agent',
      { prompt: 'p', description: 'd', subagent_type: 'explore', run_in_background: false },
      'Agent',
      {
        prompt: 'p',
        description: 'd',
        subagent_type: 'explore',
        run_in_background: false,
      },
    ],
    [
      'TodoList',
      { todos: [{ title: 'Write tests', status: 'done' }] },
      'TodoWrite',
      {
        todos: [{ content: 'Write tests', status: 'completed', activeForm: 'Write tests' }],
      },
    ],
    ['mcp__github__create_issue', { title: 't' }, 'mcp__github__create_issue', { title: 't' }],
  ])('%s is %s with its fields', (tool, args, name, input) => {
    expect(pre(tool, args)).toMatchObject({ tool_name: name, tool_input: input, tool_use_id: 'c1' });
  });

  it("PostToolUse: tool_response in Claude Code's shape (Bash split into stdout and stderr)", () => {
    const post = (tool: string, args: unknown, output: string) =>
      claudePayload('PostToolUse', facts, { tool_name: tool, tool_input: args, tool_output: output });
    expect(
      post('Bash', { command: 'ls' }, 'Exit code: 0\n<stdout>\na\nb\n</stdout>\n<stderr>\nwarn\n</stderr>')
        .tool_response,
    ).toEqual({
      stdout: 'a\nb',
      stderr: 'warn',
      interrupted: false,
      isImage: false,
      exit_code: 0,
    });
    expect(post('Write', { path: 'a.ts', content: 'x' }, 'Wrote a.ts').tool_response).toEqual({
      filePath: '/repo/a.ts',
      content: 'x',
      success: true,
    });
  });

  it('permission_mode: manual is default, yolo bypasses, plan mode is plan', () => {
    expect(claudePermissionMode('manual', false)).toBe('default');
    expect(claudePermissionMode('auto', false)).toBe('auto');
    expect(claudePermissionMode('yolo', false)).toBe('bypassPermissions');
    expect(claudePermissionMode('yolo', true)).toBe('plan');
  });
});
