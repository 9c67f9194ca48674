// `jarvis-code/sdk` as a program gets it (docs/sdk.md): the package packed with `npm pack`, installed into a scratch
// project from the loopback registry that stands in for npm's (install scripts off), then Node programs that
// `import { query, tool } from 'jarvis-code/sdk'` run against the loopback scripted model. The programs are in
// test/sdk/programs/ and examples/; each prints JSON lines this file reads. A consumer .ts file is type-checked
// against the shipped .d.ts.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { collect, makeCliDirs, mockModelEnv, type CliDirs } from '../helpers/cli';
import { startServe, type Served } from '../helpers/serveProcess';
import { startLockRegistry, type LockRegistry } from '../helpers/lockRegistry';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const ENV_SERVER = resolve(__dirname, '../fixtures/mcp/envServer.mjs');
const ZOD_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: { zod: string } }
).devDependencies.zod;

let scratch: string;
let project: string;
let registry: LockRegistry;
let server: MockModelServer | undefined;

function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('npm_package_') && !k.startsWith('npm_lifecycle_')) env[k] = v;
  return env;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'jarvis-sdk-pack-'));
  project = join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: ROOT,
    env: npmEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>;
  const npmCache = (await run('npm', ['config', 'get', 'cache'], { env: npmEnv() })).stdout.trim();
  registry = await startLockRegistry(join(ROOT, 'package-lock.json'), npmCache);
  const args = ['install', '--registry', registry.url, '--cache', join(scratch, 'npm-cache')];
  try {
    await run(
      'npm',
      [...args, '--ignore-scripts', '--no-audit', '--no-fund', join(scratch, filename), `zod@${ZOD_VERSION}`],
      { cwd: project, env: npmEnv() },
    );
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(
      `installing the tarball failed (run \`npm ci\` first: it fills the npm cache):\n${err.stderr ?? err.message}`,
    );
  }
  cpSync(join(__dirname, 'programs'), join(project, 'programs'), { recursive: true });
  cpSync(join(ROOT, 'examples'), join(project, 'examples'), { recursive: true });
}, 300_000);

afterAll(async () => {
  await registry?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

let served: Served | undefined;

afterEach(async () => {
  await served?.stop();
  served = undefined;
  await server?.close();
  server = undefined;
});

type Message = Record<string, unknown> & { type?: string; role?: string };
type Record_ = Record<string, unknown>;

/** Runs a program of the scratch project against a fresh scripted model; resolves to its one JSON report. */
async function program(
  file: string,
  script: ScriptedTurn[] | ((prompt: string) => ScriptedTurn),
  env: Record<string, string> | ((dirs: CliDirs, model: MockModelServer) => Promise<Record<string, string>>) = {},
): Promise<{ report: Record_; dirs: CliDirs; stderr: string; code: number | null }> {
  server =
    typeof script === 'function'
      ? await startMockModelServer({
          script: (req) => {
            const user = (req.body.messages as Array<{ role: string; content: unknown }>).find(
              (m) => m.role === 'user',
            );
            return script(JSON.stringify(user?.content ?? ''));
          },
        })
      : await startMockModelServer({ turns: script });
  const dirs = makeCliDirs();
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('JARVIS_')) childEnv[k] = v;
  Object.assign(childEnv, {
    JARVIS_CODE_HOME: dirs.home,
    HOME: dirs.home,
    JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
    MOCK_BASE_URL: server.baseUrlFor('openai'),
    WORK: dirs.cwd,
    ...(typeof env === 'function' ? await env(dirs, server) : env),
  });
  const child = spawn(process.execPath, [file], { cwd: project, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const r = await collect(child, 60_000);
  const lines = r.stdout.trim().split('\n').filter(Boolean);
  const records = lines.map((l) => JSON.parse(l) as Record_);
  expect(records.filter((x) => 'unhandledRejection' in x)).toEqual([]);
  expect(r.code, r.stderr).toBe(0);
  return { report: records.at(-1)!, dirs, stderr: r.stderr, code: r.code };
}

function kinds(messages: Message[]): string[] {
  return messages.map((m) => m.type ?? m.role ?? '?');
}

/** The text of every user and tool message the model received in request `i`. */
function sentToModel(i: number): string {
  return JSON.stringify(server!.requests[i].body.messages);
}

describe('jarvis-code/sdk from the packed tarball', () => {
  it('installs the SDK bundle and its types under the package export', () => {
    const pkg = join(project, 'node_modules', 'jarvis-code');
    expect(existsSync(join(pkg, 'dist', 'sdk.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist', 'sdk.d.ts'))).toBe(true);
    expect(existsSync(join(pkg, 'src'))).toBe(false);
  });

  it('yields init, assistant and a final result; manual mode without canUseTool is refused; break frees all', async () => {
    const { report } = await program('programs/messages.mjs', [{ text: 'Hello there.' }, { text: 'Hello again.' }]);
    expect(report.manualError).toContain('canUseTool');
    const messages = report.messages as Message[];
    expect(kinds(messages)).toEqual(['init', 'assistant', 'result']);
    expect(messages[0]).toMatchObject({ type: 'init', version: 1, model: 'mock-model' });
    expect(messages[1]).toEqual({ role: 'assistant', content: 'Hello there.' });
    expect(messages[2]).toMatchObject({
      type: 'result',
      outcome: 'success',
      exit_code: 0,
      text: 'Hello there.',
      session_id: messages[0].session_id,
    });
    expect(report.first).toMatchObject({ type: 'init' });
    expect(report.after).toEqual(report.before);
  });

  it('canUseTool denies a Write (the model sees why) and rewrites a Bash command', async () => {
    const { report, dirs } = await program('programs/approvals.mjs', [
      { toolCalls: [{ name: 'Write', arguments: { path: 'notes.txt', content: 'x' } }] },
      { toolCalls: [{ name: 'Bash', arguments: { command: 'echo original' } }] },
      { text: 'Done.' },
    ]);
    const asked = report.asked as Array<{ toolName: string; input: Record_ }>;
    expect(asked.map((a) => a.toolName)).toEqual(['Write', 'Bash']);
    expect(existsSync(join(dirs.cwd, 'notes.txt'))).toBe(false);
    const tools = (report.messages as Message[]).filter((m) => m.role === 'tool');
    expect(tools[0]).toMatchObject({ name: 'Write', is_error: true });
    expect(String(tools[0].content)).toContain('Writing files is not allowed in this check.');
    expect(sentToModel(1)).toContain('Writing files is not allowed in this check.');
    expect(tools[1]).toMatchObject({ name: 'Bash' });
    expect(String(tools[1].content)).toContain('rewritten-by-sdk');
    expect(String(tools[1].content)).not.toContain('original');
    expect((report.messages as Message[]).at(-1)).toMatchObject({ type: 'result', outcome: 'success' });
  });

  it('a custom tool is called by the model and its result returned; throwing callbacks become errors', async () => {
    const { report } = await program('programs/customTool.mjs', [
      { toolCalls: [{ name: 'lookup_ticket', arguments: { id: 42 } }] },
      { toolCalls: [{ name: 'lookup_ticket', arguments: { id: 'x' } }] },
      { toolCalls: [{ name: 'broken_tool', arguments: { why: 'test' } }] },
      { toolCalls: [{ name: 'lookup_ticket', arguments: { id: 7 } }] },
    ]);
    expect(report.calls).toEqual([42]);
    const messages = report.messages as Message[];
    const tools = messages.filter((m) => m.role === 'tool');
    expect(tools[0]).toMatchObject({ name: 'lookup_ticket', content: 'ticket 42: the build is red since Tuesday' });
    expect(sentToModel(1)).toContain('ticket 42: the build is red since Tuesday');
    // The model's tool list names the tool with the JSON Schema made from zod.
    const offered = (server!.requests[0].body.tools as Array<{ function: { name: string; parameters: Record_ } }>).find(
      (t) => t.function.name === 'lookup_ticket',
    );
    expect(offered?.function.parameters).toMatchObject({ type: 'object', properties: { id: { type: 'integer' } } });
    expect(tools[1]).toMatchObject({ name: 'lookup_ticket', is_error: true });
    expect(String(tools[1].content)).toContain('Invalid arguments for lookup_ticket');
    expect(tools[2]).toMatchObject({ name: 'broken_tool', is_error: true });
    expect(String(tools[2].content)).toContain('the database is down');
    expect(messages).toContainEqual({
      type: 'error',
      message: expect.stringContaining('canUseTool threw for lookup_ticket: policy service unreachable'),
    });
    expect(messages.at(-1)).toMatchObject({ type: 'result' });
  });

  it('hooks: a PreToolUse function blocks a Bash command, context joins the prompt, a throwing hook goes ahead', async () => {
    const { report } = await program('programs/hooks.mjs', [
      { toolCalls: [{ name: 'Bash', arguments: { command: 'rm -rf build' } }] },
      { toolCalls: [{ name: 'Bash', arguments: { command: 'echo cleaned' } }] },
      { toolCalls: [{ name: 'Glob', arguments: { pattern: '*.txt' } }] },
      { text: 'Done.' },
    ]);
    const messages = report.messages as Message[];
    const sessionId = messages[0].session_id;
    const heard = report.heard as Record_[];
    expect(heard[0]).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      session_id: sessionId,
      prompt: 'clean up, then list the text files',
    });
    expect(sentToModel(0)).toContain('The repository is called lighthouse.');
    const tools = messages.filter((m) => m.role === 'tool');
    expect(tools[0]).toMatchObject({ name: 'Bash', is_error: true });
    expect(String(tools[0].content)).toContain('rm -rf is not allowed; delete files one by one');
    expect(sentToModel(1)).toContain('rm -rf is not allowed; delete files one by one');
    expect(String(tools[1].content)).toContain('cleaned');
    // PostToolUse heard the two calls that ran, not the blocked one.
    expect(heard.slice(1).map((h) => [h.hook_event_name, h.tool_name])).toEqual([
      ['PostToolUse', 'Bash'],
      ['PostToolUse', 'Glob'],
    ]);
    expect(heard[1]).toMatchObject({ tool_input: { command: 'echo cleaned' } });
    expect(tools[2]).toMatchObject({ name: 'Glob' });
    expect(tools[2].is_error).toBeUndefined();
    expect(messages).toContainEqual({
      type: 'error',
      message: expect.stringContaining('options.hooks.PreToolUse #3 threw: the audit log is unreachable'),
    });
    expect(messages.at(-1)).toMatchObject({ type: 'result', outcome: 'success' });
  });

  it('outputSchema: the first answer does not fit, the second does, and the result carries it', async () => {
    const { report } = await program('programs/outputSchema.mjs', [
      { text: 'The build is fine, I think.' },
      { toolCalls: [{ name: 'StructuredOutput', arguments: { status: 'pass', failures: 0 } }] },
    ]);
    const messages = report.messages as Message[];
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      outcome: 'success',
      structured_output: { status: 'pass', failures: 0 },
    });
    expect(sentToModel(1)).toContain('does not satisfy the output schema');
  });

  it('resume continues the same session; forkSession continues in a copy', async () => {
    const { report } = await program('programs/resume.mjs', [
      { text: 'Noted: 42.' },
      { text: 'It was 42.' },
      { text: 'Still 42.' },
    ]);
    const first = report.first as Message[];
    const second = report.second as Message[];
    const forked = report.forked as Message[];
    const id = first[0].session_id;
    expect(second[0]).toMatchObject({ type: 'init', session_id: id });
    expect(second.at(-1)).toMatchObject({ outcome: 'success', session_id: id, text: 'It was 42.' });
    expect(sentToModel(1)).toContain('remember the number 42');
    expect(sentToModel(1)).toContain('Noted: 42.');
    expect(forked[0].session_id).not.toBe(id);
    expect(sentToModel(2)).toContain('It was 42.');
  });

  it('interrupt() mid-turn ends the run with outcome interrupted', async () => {
    const { report } = await program('programs/interrupt.mjs', [
      { toolCalls: [{ name: 'wait_for_stop', arguments: {} }] },
      { text: 'never sent' },
    ]);
    const messages = report.messages as Message[];
    expect(messages.at(-1)).toMatchObject({ type: 'result', outcome: 'interrupted', exit_code: 130 });
    expect(report.toolSawAbort).toBe(true);
    expect(server!.requests).toHaveLength(1);
  });

  it('a fed conversation with setModel, setPermissionMode and appendSystemPrompt; abortController stops a query', async () => {
    const { report, dirs } = await program('programs/controls.mjs', [
      { text: 'Aye, first.' },
      { toolCalls: [{ name: 'Write', arguments: { path: 'notes.txt', content: 'x' } }] },
      { text: 'Plans only, then.' },
      { toolCalls: [{ name: 'wait_for_stop', arguments: {} }] },
      { text: 'never sent' },
    ]);
    const messages = report.messages as Message[];
    expect(kinds(messages).filter((k) => k === 'result' || k === 'error')).toEqual(['result', 'error', 'result']);
    expect(messages).toContainEqual({ type: 'error', message: expect.stringContaining('must be { type: "user"') });
    const models = server!.requests.slice(0, 3).map((r) => r.body.model);
    expect(models).toEqual(['mock-model', 'mock-model-2', 'mock-model-2']);
    expect(sentToModel(0)).toContain('Answer like a lighthouse keeper.');
    expect(sentToModel(1)).toContain('now write the notes');
    // Plan mode: the Write is refused, nothing written.
    expect(messages.find((m) => m.role === 'tool')).toMatchObject({ name: 'Write', is_error: true });
    expect(existsSync(join(dirs.cwd, 'notes.txt'))).toBe(false);
    expect(messages.at(-1)).toMatchObject({ type: 'result', outcome: 'success', text: 'Plans only, then.' });
    expect(report.refused).toEqual([expect.stringContaining('needs options.canUseTool')]);
    const aborted = report.aborted as Message[];
    expect(aborted[0]).toMatchObject({ type: 'init' });
    expect(aborted.at(-1)).toMatchObject({ type: 'result', outcome: 'interrupted' });
    expect(server!.requests).toHaveLength(4);
    expect(report.after).toEqual(report.before);
  });

  it('maxBudgetUsd stops the run with outcome budget_exceeded', async () => {
    const step = (): ScriptedTurn => ({
      toolCalls: [{ name: 'Glob', arguments: { pattern: '*.txt' } }],
      usage: { input: 100, output: 10, cost: 0.15 },
    });
    const { report } = await program('programs/budget.mjs', [step(), step(), step(), { text: 'done' }]);
    const result = (report.messages as Message[]).at(-1)!;
    expect(result).toMatchObject({
      type: 'result',
      outcome: 'budget_exceeded',
      cap: { name: 'max_budget_usd', limit: 0.2 },
    });
    expect(server!.requests).toHaveLength(2);
  });

  it('two concurrent queries in one process keep separate sessions; no handle is left open', async () => {
    const { report } = await program('programs/concurrent.mjs', (prompt) => ({
      text: prompt.includes('alpha') ? 'answer for alpha' : 'answer for beta',
    }));
    const ma = report.ma as Message[];
    const mb = report.mb as Message[];
    expect(ma.at(-1)).toMatchObject({ outcome: 'success', text: 'answer for alpha' });
    expect(mb.at(-1)).toMatchObject({ outcome: 'success', text: 'answer for beta' });
    expect(ma[0].session_id).not.toBe(mb[0].session_id);
    expect(String(ma[0].cwd)).toMatch(/\/a$/);
    expect(String(mb[0].cwd)).toMatch(/\/b$/);
    expect(report.after).toEqual(report.before);
  });

  it('two concurrent queries with their own env and folder: each one’s Bash, hook and MCP server see them; process.env unchanged', async () => {
    // Each query's steps, by the word in its prompt: a background and a foreground Bash, the MCP tool, the answer.
    const steps = (word: string): ScriptedTurn[] => [
      {
        toolCalls: [
          {
            name: 'Bash',
            arguments: { command: 'printf %s "$PROBE_X" > bg-env.txt', run_in_background: true, description: 'env' },
          },
        ],
      },
      { toolCalls: [{ name: 'Bash', arguments: { command: 'printf "bash saw %s" "$PROBE_X"' } }] },
      { toolCalls: [{ name: 'mcp__probe__report_env', arguments: {} }] },
      { text: `done ${word}` },
    ];
    const taken = { alpha: 0, beta: 0 };
    const { report, dirs } = await program(
      'programs/env.mjs',
      (prompt) => {
        const word = prompt.includes('alpha') ? 'alpha' : 'beta';
        return steps(word)[Math.min(taken[word]++, 3)];
      },
      async (d) => {
        writeFileSync(
          join(d.home, 'config.toml'),
          '[[hooks]]\nevent = "PostToolUse"\nmatcher = "^Bash$"\n' +
            `command = 'printf "%s|%s" "$PROBE_X" "$LOGNAME" > "$JARVIS_PROJECT_DIR/hook-env.txt"'\n`,
        );
        const probe = { command: process.execPath, args: [ENV_SERVER], env: { PROBE_X: '${PROBE_X}' } };
        writeFileSync(join(d.home, 'mcp.json'), JSON.stringify({ mcpServers: { probe } }));
        return {};
      },
    );
    for (const word of ['alpha', 'beta'] as const) {
      const messages = report[word === 'alpha' ? 'ma' : 'mb'] as Message[];
      expect(messages.at(-1)).toMatchObject({ type: 'result', outcome: 'success' });
      const tools = messages.filter((m) => m.role === 'tool');
      expect(String(tools.find((t) => t.name === 'Bash' && String(t.content).includes('bash saw'))?.content)).toContain(
        `bash saw probe-${word}`,
      );
      const mcp = tools.find((t) => t.name === 'mcp__probe__report_env');
      const cwd = join(dirs.cwd, word);
      // A server without a `cwd` of its own starts in its session's folder, not the program's.
      expect(JSON.parse(String(mcp?.content))).toEqual({
        PROBE_X: `probe-${word}`,
        LOGNAME: `user-${word}`,
        cwd: realpathSync(cwd),
      });
      expect(readFileSync(join(cwd, 'hook-env.txt'), 'utf8')).toBe(`probe-${word}|user-${word}`);
      expect(readFileSync(join(cwd, 'bg-env.txt'), 'utf8')).toBe(`probe-${word}`);
    }
    expect(report.probeInProcess).toBeNull();
    expect(report.processEnvUnchanged).toBe(true);
    expect(report.after).toEqual(report.before);
  });

  it('options.server: the same messages from a jarvis serve; canUseTool answered over the API; resume; interrupt', async () => {
    const { report, dirs } = await program(
      'programs/serverQuery.mjs',
      (() => {
        const turns: ScriptedTurn[] = [
          { toolCalls: [{ name: 'Write', arguments: { path: 'notes.txt', content: 'x' } }] },
          { toolCalls: [{ name: 'Bash', arguments: { command: 'echo original' } }] },
          { text: 'Done.' },
          { text: 'I tried to write and ran echo.' },
        ];
        let i = 0;
        return () => turns[i++] ?? { hang: true };
      })(),
      async (dirs, model) => {
        served = await startServe(dirs, mockModelEnv(model.baseUrlFor('openai')));
        return { SERVE_URL: served.url, SERVE_TOKEN: served.token };
      },
    );
    const asked = report.asked as Array<{ toolName: string }>;
    expect(asked.map((a) => a.toolName)).toEqual(['Write', 'Bash']);
    const first = report.first as Message[];
    expect(kinds(first)).toEqual(['init', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'result']);
    expect(first[0]).toMatchObject({ type: 'init', version: 1, model: 'mock-model', cwd: dirs.cwd });
    expect(first[2]).toMatchObject({ role: 'tool', name: 'Write', is_error: true });
    expect(String(first[2].content)).toContain('Writing files is not allowed in this check.');
    expect(String(first[4].content)).toContain('rewritten-by-sdk');
    expect(first.at(-1)).toMatchObject({
      type: 'result',
      outcome: 'success',
      text: 'Done.',
      session_id: first[0].session_id,
    });
    expect(existsSync(join(dirs.cwd, 'notes.txt'))).toBe(false);
    const second = report.second as Message[];
    expect(second.at(-1)).toMatchObject({ outcome: 'success', session_id: first[0].session_id });
    expect(sentToModel(3)).toContain('rewritten-by-sdk');
    expect((report.stopped as Message[]).at(-1)).toMatchObject({ type: 'result', outcome: 'interrupted' });
    expect(report.refused).toEqual([
      { type: 'error', message: expect.stringContaining('the token is wrong (code 40101)') },
      expect.objectContaining({ type: 'result', outcome: 'error' }),
    ]);
    expect(report.after).toEqual(report.before);
  });

  it('a consumer .ts file type-checks against the shipped .d.ts', async () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      [
        "import { query, tool, type SDKMessage, type PermissionResult, type HookInput } from 'jarvis-code/sdk';",
        "const t = tool<{ id: number }>({ name: 'lookup', description: 'd', inputSchema: { type: 'object' }, handler: async ({ id }) => `#${id}` });",
        'const deny: PermissionResult = { behavior: "deny", message: "no" };',
        "const q = query({ prompt: 'hi', options: { permissionMode: 'manual', tools: [t], canUseTool: async () => deny, maxBudgetUsd: 1 } });",
        'export async function main(): Promise<number> {',
        '  for await (const m of q) { const x: SDKMessage = m; if ("type" in x && x.type === "result") return x.exit_code; }',
        '  await q.setPermissionMode("plan");',
        '  return 0;',
        '}',
        "const hooks = { PreToolUse: [{ matcher: '^Bash$', hooks: [async (i: HookInput) => (i.tool_name === 'Bash' ? { permissionDecision: 'deny' as const, reason: 'no' } : undefined)] }] };",
        "void query({ prompt: 'hi', options: { hooks } });",
        '// @ts-expect-error: not a hook event',
        "void query({ prompt: 'hi', options: { hooks: { BeforeEverything: [] } } });",
        '// @ts-expect-error: not a permission mode',
        "void q.setPermissionMode('sometimes');",
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const r = await run(process.execPath, [tsc, ...flags, '--lib', 'es2022,dom', 'consumer.ts'], {
      cwd: project,
    }).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr, failed: true }));
    expect(r.stdout + r.stderr).toBe('');
  });
});

describe('examples/', () => {
  /** The examples print their own lines; `program` wants JSON lines, so they run here directly. */
  async function example(file: string, args: string[], turns: ScriptedTurn[]) {
    server = await startMockModelServer({ turns });
    const dirs = makeCliDirs();
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('JARVIS_')) env[k] = v;
    Object.assign(env, {
      JARVIS_CODE_HOME: dirs.home,
      HOME: dirs.home,
      JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
      ...mockModelEnv(server.baseUrlFor('openai')),
    });
    const child = spawn(process.execPath, [file, ...args], { cwd: dirs.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return { ...(await collect(child, 60_000)), dirs };
  }

  it('ci-check.mjs gets a structured verdict and exits by it', async () => {
    const r = await example(
      join(project, 'examples', 'ci-check.mjs'),
      [],
      [
        { toolCalls: [{ name: 'Grep', arguments: { pattern: 'TODO' } }] },
        { toolCalls: [{ name: 'StructuredOutput', arguments: { status: 'fail', problems: ['src/a.js:3 TODO'] } }] },
      ],
    );
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'fail', problems: ['src/a.js:3 TODO'] });
    expect(r.stderr).toContain('ran Grep');
  });

  it('serve-client.mjs: a client of jarvis serve that asks on the terminal; a no refuses the Write', async () => {
    server = await startMockModelServer({
      turns: [
        { toolCalls: [{ name: 'Write', arguments: { path: 'a.txt', content: 'one' } }] },
        { toolCalls: [{ name: 'Write', arguments: { path: 'b.txt', content: 'two' } }] },
        { text: 'Wrote a.txt; b.txt was refused.' },
      ],
    });
    const dirs = makeCliDirs();
    served = await startServe(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('JARVIS_')) env[k] = v;
    Object.assign(env, { JARVIS_SERVER_URL: served.url, JARVIS_SERVER_TOKEN: served.token });
    const child = spawn(process.execPath, [join(project, 'examples', 'serve-client.mjs'), 'write two files'], {
      cwd: project,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin!.end('y\nn\n');
    const r = await collect(child, 60_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Allow Write \{"path":"a.txt","content":"one".*\} \(.+\)\? \[y\/N\]/);
    expect(r.stderr).toContain('Write → ');
    expect(r.stdout).toContain('Wrote a.txt; b.txt was refused.');
    expect(readFileSync(join(dirs.cwd, 'a.txt'), 'utf8')).toBe('one');
    expect(existsSync(join(dirs.cwd, 'b.txt'))).toBe(false);
    expect(JSON.stringify(server.requests[2].body.messages)).toContain('The user said no at the terminal.');
  });

  it('custom-tool.mjs: the model calls the program’s tool, canUseTool approves it and refuses a Write', async () => {
    const r = await example(
      join(project, 'examples', 'custom-tool.mjs'),
      ['What is ticket 42 about?'],
      [
        { toolCalls: [{ name: 'lookup_ticket', arguments: { id: 42 } }] },
        { toolCalls: [{ name: 'Write', arguments: { path: 'summary.txt', content: 'x' } }] },
        { text: 'Ticket 42 is about the nightly build failing on Node 20.' },
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Ticket 42 is about the nightly build failing on Node 20.');
    expect(r.stderr).toContain('approval asked: lookup_ticket {"id":42}');
    expect(r.stderr).toContain('lookup_ticket → Ticket 42: The nightly build fails on Node 20');
    expect(r.stderr).toContain('This helper never changes files.');
    expect(existsSync(join(r.dirs.cwd, 'summary.txt'))).toBe(false);
  });
});
