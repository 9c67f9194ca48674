// A project set up for Claude Code (test/fixtures/claude-code/project: `.claude/settings.json` with python3 hook
// scripts written for Claude Code, and a `settings.local.json` saved with a BOM and CRLF) used unchanged through
// `jarvis -p` against the mock model: the PreToolUse script reads `tool_input.file_path`, `transcript_path` and
// `$CLAUDE_PROJECT_DIR` from the project folder and blocks one Write while letting another through; the PostToolUse
// script's answer reaches the model with the result; the Stop script reads the transcript the way ralph-loop does and
// keeps the turn going once; the local settings' UserPromptSubmit context reaches the model. The project's hooks run
// only in a trusted folder, only with the bytes the user trusted (docs/hooks.md, "Claude Code hooks").
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const PROJECT = resolve(__dirname, '../fixtures/claude-code/project');

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModelServer();
});
afterAll(async () => {
  await model.close();
});

function project(): CliDirs {
  const dirs = makeCliDirs();
  cpSync(PROJECT, dirs.cwd, { recursive: true });
  return dirs;
}

const run = (dirs: CliDirs, prompt: string) =>
  runJarvis(['-p', prompt], { env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))), cwd: dirs.cwd });

type Message = { role: string; content: unknown; tool_call_id?: string };
const text = (v: unknown) => JSON.stringify(v);
const toolResult = (body: { messages: Message[] }, id: string) =>
  text(body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id)?.content);
/** One line of the fixture script's log: what it read on stdin, and where it ran. */
interface LoggedCall {
  payload: Record<string, unknown> & {
    tool_input: { file_path: string; path?: string };
    transcript_path: string;
    client_type?: string;
  };
  cwd: string;
  project_dir: string;
}
const hookLog = (dirs: CliDirs) =>
  readFileSync(join(dirs.cwd, '.claude/hook-log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LoggedCall);

describe("Claude Code's .claude/settings.json hooks through jarvis -p", () => {
  it('a python3 hook written for Claude Code blocks a Write to config/ and lets a Write to src/ through', async () => {
    const dirs = project();
    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    const before = model.requests.length;
    model.push(
      {
        toolCalls: [
          { id: 'w_config', name: 'Write', arguments: { path: 'config/app.json', content: '{"port": 9090}\n' } },
          { id: 'w_src', name: 'Write', arguments: { path: 'src/port.ts', content: 'export const port = 9090;\n' } },
        ],
      },
      { text: 'Changed src/port.ts.' },
      { text: 'Formatted. DONE' },
    );
    const r = await run(dirs, 'move the service to port 9090');
    expect(r.code, r.stderr).toBe(0);
    const [first, second, third] = model.requests.slice(before).map((q) => q.body);

    // The blocked Write did not happen; the model reads the script's stderr. The other one ran.
    expect(readFileSync(join(dirs.cwd, 'config/app.json'), 'utf8')).toBe('{"port": 8080}\n');
    expect(toolResult(second, 'w_config')).toContain('config/app.json is frozen until the release ships');
    expect(readFileSync(join(dirs.cwd, 'src/port.ts'), 'utf8')).toBe('export const port = 9090;\n');

    // The payload, the environment and the working folder are Claude Code's.
    const calls = hookLog(dirs);
    expect(calls).toHaveLength(2);
    const srcCall = calls.find((c) => c.payload.tool_input.file_path.endsWith('src/port.ts'))!;
    expect(srcCall.payload).toMatchObject({
      session_id: expect.any(String),
      cwd: dirs.cwd,
      hook_event_name: 'PreToolUse',
      permission_mode: 'auto',
      tool_name: 'Write',
      tool_input: { file_path: join(dirs.cwd, 'src/port.ts'), content: 'export const port = 9090;\n' },
      tool_use_id: 'w_src',
    });
    expect(srcCall.payload.tool_input.path).toBeUndefined();
    expect(srcCall.payload.client_type).toBeUndefined();
    expect(srcCall.cwd).toBe(dirs.cwd);
    expect(srcCall.project_dir).toBe(dirs.cwd);
    // The transcript is the session's conversation as Claude Code's JSON lines, readable by the hook.
    const transcript = readFileSync(srcCall.payload.transcript_path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(transcript[0]).toMatchObject({ type: 'user', message: { role: 'user' } });
    expect(text(transcript[0].message.content)).toContain('move the service to port 9090');
    expect(transcript[1]).toMatchObject({
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'w_config', name: 'Write', input: { file_path: join(dirs.cwd, 'config/app.json') } },
          { type: 'tool_use', id: 'w_src', name: 'Write', input: { file_path: join(dirs.cwd, 'src/port.ts') } },
        ],
      },
    });
    // Read after the run: the Stop hook's last read had every answer (what ralph-loop's jq pipeline reads).
    expect(transcript.filter((l) => l.type === 'assistant').at(-1).message.content).toEqual([
      { type: 'text', text: 'Formatted. DONE' },
    ]);

    // settings.local.json (BOM, CRLF): its UserPromptSubmit output is context for the model.
    expect(text(first.messages)).toContain(`Current ticket: JAR-7 (from ${join(dirs.cwd).split('/').pop()})`);
    // PostToolUse: the script's "block" reason reaches the model with the src/ result; its systemMessage the user.
    expect(toolResult(second, 'w_src')).toContain('src/port.ts changed: run `npm run format` before you finish.');
    expect(r.stderr).toContain('format reminder sent');
    // Stop: the script read the last answer from the transcript and kept the turn going once.
    expect(text(third.messages.at(-1))).toContain('The checklist is not finished: say DONE when it is.');
    expect(r.stdout).toContain('Formatted. DONE');
    // Said once: the field Jarvis does not apply; `"async": false` is how every hook runs, so it is not named.
    expect(r.stderr.match(/"if" \(on 1 hook\) is not applied/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/"async"/);
  }, 60_000);

  it('in a folder that is not trusted the project hooks do not run, and stderr says why', async () => {
    const dirs = project();
    model.push(
      { toolCalls: [{ id: 'w1', name: 'Write', arguments: { path: 'config/app.json', content: '{}\n' } }] },
      { text: 'ok' },
    );
    const r = await run(dirs, 'reset the config');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dirs.cwd, '.claude/hook-log.jsonl'))).toBe(false);
    expect(r.stderr).toMatch(/\.claude\/settings\.json: 3 hooks not used because this workspace is not trusted/);
    expect(r.stderr).toMatch(/\.claude\/settings\.local\.json: 1 hook not used because this workspace is not trusted/);
    const doctor = await runJarvis(['doctor'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(doctor.stdout).toMatch(
      /hooks .*\/\.claude\/settings\.json \(Claude Code, project\): 3 hooks; not used: this workspace is not trusted/,
    );
    expect(doctor.stdout).toMatch(/note: .*settings\.json: "if" \(on 1 hook\) is not applied/);
  }, 60_000);

  it('a settings file changed since the folder was trusted is not used until approved again', async () => {
    const dirs = project();
    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    const file = join(dirs.cwd, '.claude/settings.json');
    // What a sandboxed command or a pulled branch could do: add a hook the user never saw.
    const planted = JSON.parse(readFileSync(file, 'utf8'));
    planted.hooks.SessionStart = [{ hooks: [{ type: 'command', command: `touch ${join(dirs.cwd, 'planted')}` }] }];
    writeFileSync(file, JSON.stringify(planted, null, 2));
    model.push({ text: 'ok' });
    const r = await run(dirs, 'hello');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dirs.cwd, 'planted'))).toBe(false);
    expect(r.stderr).toContain(
      '.claude/settings.json changed since this workspace was trusted; its hooks are not used',
    );
    // The local file is unchanged and still trusted.
    expect(text(model.requests.at(-1)!.body.messages)).toContain('Current ticket: JAR-7');
  }, 60_000);

  it("~/.claude/settings.json hooks run everywhere, with Claude Code's answers (continue: false ends the turn)", async () => {
    const dirs = makeCliDirs();
    const log = join(dirs.home, 'bash-log.jsonl');
    const script = join(dirs.home, '.claude/hooks/no_push.sh');
    cpSync(PROJECT, dirs.cwd, { recursive: true, filter: (src) => !src.includes('/.claude') });
    const settings = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `bash ${script}` }] }],
      },
    };
    cpSync(join(PROJECT, '.claude/hooks'), join(dirs.home, '.claude/hooks'), { recursive: true });
    writeFileSync(join(dirs.home, '.claude/settings.json'), JSON.stringify(settings, null, 2));
    writeFileSync(
      script,
      [
        '#!/usr/bin/env bash',
        'input=$(cat)',
        `printf '%s\\n' "$input" >> ${log}`,
        'cmd=$(printf "%s" "$input" | python3 -c "import json,sys; print(json.load(sys.stdin)[\'tool_input\'][\'command\'])")',
        'case "$cmd" in',
        '  *"git push"*) echo \'{"continue": false, "stopReason": "Pushing is done by CI; stopping here."}\' ;;',
        'esac',
        'exit 0',
      ].join('\n'),
    );
    model.push(
      { toolCalls: [{ id: 'b_ls', name: 'Bash', arguments: { command: 'ls src' } }] },
      { toolCalls: [{ id: 'b_push', name: 'Bash', arguments: { command: 'git push origin main' } }] },
    );
    const before = model.requests.length;
    const r = await run(dirs, 'ship it');
    expect(r.stderr).toContain('A hook stopped the turn: Pushing is done by CI; stopping here.');
    expect(model.requests.length - before).toBe(2);
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.tool_input.command)).toEqual(['ls src', 'git push origin main']);
    expect(lines[0]).toMatchObject({ tool_name: 'Bash', hook_event_name: 'PreToolUse', cwd: dirs.cwd });
  }, 60_000);
});
