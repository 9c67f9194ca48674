// The attack corpus through the built CLI (docs/trust-boundary.md "Attack corpus"): for one user's world
// (test/tools/boundary/corpusWorld.ts), a scripted model makes every row's Bash call in one turn — one `jarvis -p` run
// (or one ACP session in manual mode) per session: the workspace, a fresh project, the home folder — then
// waits for the background row, then answers. What each call got back, what the user and Jarvis do next, and the
// canaries outside are then judged row by row.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCorpusWorld, provePlain, rowsFor, type CorpusRow, type CorpusWorld } from '../tools/boundary/corpusWorld';
import { SESSIONS, type SessionName } from '../tools/boundary/corpusKit';
import { LEGITIMATE } from '../tools/boundary/legitimateCommands';
import { startAcpClient } from './acpClient';
import { cliEnv, mockModelEnv, runJarvis, waitUntil } from './cli';
import {
  startMockModelServer,
  type MockModelServer,
  type ScriptedToolCall,
  type ScriptedTurn,
} from './mockModelServer';
import { requireSystemPart } from './requireAll';
import { sandboxAvailable } from './sandboxAvailable';
import { launcherFor, makeUserRoot, removeUserRoots, sandboxTestUsers } from './sandboxUsers';
import { startSocketFixtures, type SocketFixtures } from './socketFixtures';

export type FrontEnd = 'print' | 'acp';

export interface CorpusOutcome {
  /** What each row's attack got through Jarvis (undefined: nothing), by row id. */
  got: Map<string, string | undefined>;
  /** Each row's tool results, for failure messages. */
  output: Map<string, string>;
  /** Legitimate rows: what is wrong (undefined: it worked). */
  legit: Map<string, string | undefined>;
  /** What the next session's Edit of each language-server row's file said, by row id. */
  edited: Map<string, string>;
  /** ACP: the permission requests the editor answered. */
  asked: RequestPermissionRequest[];
  /** Files outside the workspace that changed. */
  canaries: string[];
  stderr: string;
}

/** Jarvis's environment in the world: the mock model, the user's home and JARVIS_CODE_HOME, the socket variables. */
export function worldEnv(world: CorpusWorld, server: MockModelServer): NodeJS.ProcessEnv {
  const sockets = world.rows[0]?.fx.sockets ?? {};
  // No DISPLAY: Jarvis itself (outside the sandbox) may reach the user's X server, which the socket count would take
  // for an attack.
  const pick = ['SSH_AUTH_SOCK', 'XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS', 'DOCKER_HOST'];
  return {
    ...cliEnv({ home: world.jarvis, cwd: world.workspace }, mockModelEnv(server.baseUrlFor('openai'))),
    HOME: world.home,
    TMPDIR: join(world.root, 'tmp'),
    JARVIS_DISABLE_CRON: '1',
    ...Object.fromEntries(pick.filter((k) => sockets[k]).map((k) => [k, sockets[k]])),
  };
}

/**
 * The model's turns for one session: every row's call, then the wait for the background rows, then its last word.
 * Through ACP an escalation row is a session of its own (`escalations`): the editor's user refusing to leave the
 * sandbox ends the whole turn, and the calls after it in the step are not run.
 */
function turnsFor(
  world: CorpusWorld,
  session: SessionName,
  front: FrontEnd,
): { turns: ScriptedTurn[]; background: CorpusRow[]; escalations: CorpusRow[] } {
  const rows = world.rows.filter((r) => r.session === session);
  const escalations = front === 'acp' ? rows.filter((r) => r.c.escalate) : [];
  const calls = (): ScriptedToolCall[] => {
    const made: ScriptedToolCall[] = [];
    for (const r of rows.filter((row) => !escalations.includes(row))) {
      if (r.c.during) made.push(bashCall(r, { run_in_background: true, description: 'watch' }));
      else made.push(...escalationCalls(r));
    }
    if (session === 'workspace')
      for (const l of world.legit)
        made.push({ id: l.id, name: 'Bash', arguments: { command: l.l.command, cwd: l.cwd } });
    return made;
  };
  const background = rows.filter((r) => r.c.during);
  // The calls are made when the model is first asked: the session's folder exists then, and a session row names it.
  const first: ScriptedTurn = {
    before: async () => {
      world.attachSession(session);
      first.toolCalls = calls();
    },
  };
  const turns: ScriptedTurn[] = [first];
  if (background.length) {
    // Waits in the workspace until each background row was released and is over (corpusCli's watcher says so).
    const wait = background.map(
      (r) => `until [ -e ${r.fx.ws}/.release ] && [ -e ${r.fx.ws}/.done ]; do sleep 0.1; done`,
    );
    turns.push({
      toolCalls: [{ id: 'wait', name: 'Bash', arguments: { command: wait.join('; '), timeout: 120_000 } }],
    });
  }
  turns.push({ text: 'Done.' });
  return { turns, background, escalations };
}

function bashCall(r: CorpusRow, more: Record<string, unknown> = {}): ScriptedToolCall {
  return { id: r.id, name: 'Bash', arguments: { command: r.command, cwd: r.cwd, ...more } };
}

/** The row's call, and for an escalation row the same command asking to leave the sandbox right after. */
function escalationCalls(r: CorpusRow): ScriptedToolCall[] {
  if (!r.c.escalate) return [bashCall(r)];
  return [bashCall(r), { ...bashCall(r, { dangerously_unsandboxed: true }), id: `${r.id}-out` }];
}

/**
 * Plays the background rows: once Jarvis started the row's command, the user makes the file (`during`); when the
 * boundary stopped the command (its task record says so), `.done` is written for it; then `.release` lets it go on.
 */
async function watchBackground(world: CorpusWorld, server: MockModelServer, rows: CorpusRow[], from: number) {
  for (const row of rows) {
    let started = '';
    await waitUntil(() => !!(started = toolResults(server, from).get(row.id) ?? ''), 200_000, `${row.id} started`);
    const id = /background task (\w+)/.exec(started)?.[1];
    if (!id) throw new Error(`the background row did not start: ${started}`);
    row.c.during!(row.fx);
    const record = () => findFile(world.jarvis, join('tasks', `${id}.json`));
    const stopped = () => {
      const file = record();
      return !!file && (JSON.parse(readFileSync(file, 'utf8')) as { status: string }).status !== 'running';
    };
    // Bounded: a boundary that does not stop the command lets it read the file (the row then fails on what leaked).
    await waitUntil(stopped, 30_000, `${row.id} stopped`).catch(() => undefined);
    if (stopped()) writeFileSync(join(row.fx.ws, '.done'), '');
    writeFileSync(join(row.fx.ws, '.release'), '');
  }
}

function findFile(dir: string, tail: string): string | undefined {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (path.endsWith(tail) && e.isFile()) return path;
    if (e.isDirectory()) {
      const found = findFile(path, tail);
      if (found) return found;
    }
  }
  return undefined;
}

/** Turns the model gives once to the prompt with this text (an ACP prompt of its own). */
const PROMPTED = new Map<string, ScriptedTurn>();

/**
 * The model's answer once the scripted turns are used up: the turn set for the newest prompt, if not given yet; else
 * a short word (the completion of a background row comes back as a notification turn after the scripted ones).
 */
function answerPrompt(req: { body: { messages: Array<{ role: string; content: unknown }> } }): ScriptedTurn {
  // What the user side said since the model last spoke (a prompt may come with a task's notification beside it).
  const messages = req.body.messages;
  const lastReply = messages.findLastIndex((m) => m.role === 'assistant');
  const said = JSON.stringify(messages.slice(lastReply + 1).filter((m) => m.role === 'user'));
  const key = [...PROMPTED.keys()].find((k) => said.includes(k));
  const turn = key ? PROMPTED.get(key) : undefined;
  if (key) PROMPTED.delete(key);
  return turn ?? { text: 'Noted.' };
}

/** Every tool result the model was sent since request `from`, by call id. */
export function toolResults(server: MockModelServer, from: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const req of server.requests.slice(from))
    for (const m of req.body.messages as Array<{ role: string; tool_call_id?: string; content: unknown }>)
      if (m.role === 'tool' && m.tool_call_id) out.set(m.tool_call_id, String(m.content));
  return out;
}

/** The legitimate form of the language-server rows: an Edit in a project nobody planted in gets its diagnostics. */
export const LSP_LEGIT = "a language server's diagnostics after an Edit";

/**
 * The next sessions in the workspace: a Read and an Edit of each language-server row's file (its server, planted or
 * not, starts; the first check waits 3 s, as one planted never answers), then, with the first check's usual wait, a
 * Read and a breaking Edit in the project nobody planted in, whose diagnostics must come back.
 */
async function nextRead(world: CorpusWorld, server: MockModelServer, env: NodeJS.ProcessEnv) {
  const rows = world.rows.filter((r) => r.c.jarvis?.read);
  const path = (r: CorpusRow) => join(r.fx.ws, r.c.jarvis!.read!);
  // The user's config as the sessions left it, restored after (a row's check may read it).
  const configFile = join(world.jarvis, 'config.toml');
  const config = readFileSync(configFile, 'utf8');
  const run = async (turns: ScriptedTurn[], lsp: string) => {
    writeFileSync(configFile, `${config}\n${lsp}`);
    server.push(...turns, { text: 'Checked.' });
    const r = await runJarvis(['-p', 'fix the cart'], {
      env,
      cwd: world.workspace,
      launcher: launcherFor(world.user),
      timeoutMs: 240_000,
    });
    if (r.code !== 0) throw new Error(`the next session ended with ${r.code}:\n${r.stderr}`);
    return r.stderr;
  };
  let stderr = '';
  if (rows.length)
    stderr += await run(
      [
        { toolCalls: rows.map((r) => ({ id: `${r.id}-read`, name: 'Read', arguments: { path: path(r) } })) },
        {
          toolCalls: rows.map((r) => ({
            id: `${r.id}-edit`,
            name: 'Edit',
            arguments: { path: path(r), ...r.c.jarvis!.edit },
          })),
        },
      ],
      '[lsp]\nfirst_diagnostics_wait_ms = 3000\n',
    );
  const project = join(world.lspProject, 'src', 'cart.ts');
  const from = server.requests.length;
  const edit = { path: project, old_string: 'formatPrice(total)', new_string: 'formatPrice("x")' };
  stderr += await run(
    [
      { toolCalls: [{ id: 'lsp-read', name: 'Read', arguments: { path: project } }] },
      { toolCalls: [{ id: 'lsp-edit', name: 'Edit', arguments: edit }] },
    ],
    '[lsp]\nfirst_diagnostics_wait_ms = 120000\n',
  );
  writeFileSync(configFile, config);
  const output = toolResults(server, from).get('lsp-edit') ?? '';
  const problem = output.includes('This change introduced 1 new error') ? undefined : 'no diagnostics came back';
  return { stderr, output, problem };
}

/** Runs the corpus of `world` through `front` and judges every row. */
export async function runCorpus(world: CorpusWorld, server: MockModelServer, front: FrontEnd): Promise<CorpusOutcome> {
  const before = world.outsideFiles();
  const env = worldEnv(world, server);
  const from = server.requests.length;
  const asked: RequestPermissionRequest[] = [];
  let stderr = '';
  for (const session of SESSIONS) {
    const { turns, background } = turnsFor(world, session, front);
    if (session !== 'workspace' && !world.rows.some((r) => r.session === session)) continue;
    const cwd = world.sessions[session];
    server.push(...turns);
    const watching = watchBackground(world, server, background, from);
    if (front === 'print') {
      const r = await runJarvis(['-p', 'set up the project'], {
        env,
        cwd,
        launcher: launcherFor(world.user),
        timeoutMs: 300_000,
      });
      stderr += r.stderr;
      if (r.code !== 0) throw new Error(`jarvis -p ended with ${r.code}:\n${r.stderr}`);
    } else {
      stderr += await acpSession(world, env, cwd, asked);
    }
    await watching;
    // Every scripted turn was the model's answer in this session (none is left to answer the next one's).
    if (server.remaining() !== 0)
      throw new Error(`${server.remaining()} turns of the ${session} session were not used`);
  }
  const results = toolResults(server, from);
  if (front === 'acp') {
    const escalated = await acpEscalations(world, world.workspace, asked);
    stderr += escalated.stderr;
    for (const [id, text] of escalated.results) results.set(id, text);
  }
  // What Jarvis does next: the next session in the workspace starts the project's MCP servers.
  if (world.rows.some((r) => r.c.jarvis?.nextSession)) {
    server.push({ text: 'Hello.' });
    const next = await runJarvis(['-p', 'hello'], {
      env,
      cwd: world.workspace,
      launcher: launcherFor(world.user),
      timeoutMs: 120_000,
    });
    stderr += next.stderr;
  }
  // What Jarvis does next: the next session reads and edits a TypeScript file (its language server starts).
  const lspLegit = await nextRead(world, server, env);
  stderr += lspLegit.stderr;
  const got = new Map<string, string | undefined>();
  const output = new Map<string, string>();
  const afterwards = toolResults(server, from);
  const edited = new Map(world.rows.map((r) => [r.id, afterwards.get(`${r.id}-edit`) ?? '']));
  for (const row of world.rows) {
    let text = [results.get(row.id), results.get(`${row.id}-out`)].filter(Boolean).join('\n');
    const file = /Output file: (\S+)/.exec(text)?.[1];
    if (row.c.during && file && existsSync(file)) text += `\n${readFileSync(file, 'utf8')}`;
    await world.later(row);
    output.set(row.id, text);
    got.set(row.id, row.c.check(row.fx, text));
  }
  const legit = new Map<string, string | undefined>([[LSP_LEGIT, lspLegit.problem]]);
  output.set(LSP_LEGIT, lspLegit.output);
  for (const l of world.legit) {
    const text = results.get(l.id) ?? '';
    const aside = quarantined(l.fx.ws);
    legit.set(l.id, aside.length ? `the boundary moved aside ${aside.join(', ')}` : l.l.check(l.fx, text));
    output.set(l.id, text);
  }
  const after = world.outsideFiles();
  const canaries = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
  return { got, output, legit, asked, canaries, stderr, edited };
}

/** One ACP session in manual mode on `cwd`: every sandboxed command allowed, every request to leave it refused. */
async function acpSession(world: CorpusWorld, env: NodeJS.ProcessEnv, cwd: string, asked: RequestPermissionRequest[]) {
  const editor = await startAcpClient({ env, cwd, launcher: launcherFor(world.user) });
  try {
    editor.answerPermissions(editorUser(world, asked));
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd, mcpServers: [] });
    await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'manual' });
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'set up the project' }],
    });
    if (response.stopReason !== 'end_turn') throw new Error(`the ACP turn ended with ${response.stopReason}`);
  } finally {
    await editor.close();
  }
  return editor.stderr();
}

/** The editor's user: allows every sandboxed command (for the session, an escalation row's), refuses leaving it. */
function editorUser(world: CorpusWorld, asked: RequestPermissionRequest[]) {
  const escalated = new Set(world.rows.filter((r) => r.c.escalate).map((r) => r.command));
  return (req: RequestPermissionRequest) => {
    asked.push(req);
    const input = req.toolCall.rawInput as { command?: string; dangerously_unsandboxed?: boolean } | undefined;
    if (input?.dangerously_unsandboxed) return 'reject';
    return escalated.has(input?.command ?? '') ? 'allow_session' : 'allow_once';
  };
}

/**
 * The escalation rows through ACP, each in a session of its own, with a model of their own (nothing left of the
 * corpus's session, such as a background task's notification turn, shares their turns): the same command allowed
 * for the session sandboxed, then asked to leave the sandbox. The user's no ends the turn.
 */
async function acpEscalations(
  world: CorpusWorld,
  cwd: string,
  asked: RequestPermissionRequest[],
): Promise<{ stderr: string; results: Map<string, string> }> {
  const rows = world.rows.filter((r) => r.c.escalate);
  if (rows.length === 0) return { stderr: '', results: new Map() };
  const server = await startMockModelServer({ script: answerPrompt });
  const editor = await startAcpClient({ env: worldEnv(world, server), cwd, launcher: launcherFor(world.user) });
  try {
    editor.answerPermissions(editorUser(world, asked));
    for (const row of rows) {
      const text = `run ${row.id} again outside the sandbox`;
      PROMPTED.set(text, { toolCalls: escalationCalls(row) });
      const { sessionId } = await editor.connection.agent.request('session/new', { cwd, mcpServers: [] });
      await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'manual' });
      // The user's no ends the turn (`cancelled`); a request refused before it is asked lets the turn go on.
      await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    }
    return { stderr: editor.stderr(), results: toolResults(server, 0) };
  } finally {
    await editor.close();
    await server.close();
  }
}

/** What the boundary moved aside under `dir`. */
function quarantined(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.includes('.quarantined-by-jarvis')) found.push(join(d, e.name));
      else if (e.isDirectory()) walk(join(d, e.name));
    }
  };
  walk(dir);
  return found;
}

/**
 * The corpus test of one front end for one user — the current one (root), or an unprivileged one made here where the
 * tests run as root (skipped, saying why, elsewhere); one test file each keeps each file's run short — two worlds — one where every row is first proved in plain bash, one it is sent through Jarvis — then one row
 * per test: the attack worked in plain bash, got nothing through Jarvis; the legitimate forms worked; canaries stayed.
 */
export function describeCorpus(front: FrontEnd, who: 'current' | 'unprivileged'): void {
  const available =
    sandboxAvailable() &&
    requireSystemPart('python3', 'attacks from Python') &&
    requireSystemPart('ssh-agent', 'the SSH agent fixture') &&
    requireSystemPart('setpriv', 'runs Jarvis as an unprivileged user');
  const users = available
    ? sandboxTestUsers(`corpus-${front}`).filter((u) => (u.label === 'unprivileged') === (who === 'unprivileged'))
    : [];
  describe.skipIf(users.length === 0)(
    `the attack corpus through ${front === 'print' ? 'jarvis -p' : 'ACP in manual mode'}`,
    () => {
      let server: MockModelServer;
      beforeAll(async () => {
        server = await startMockModelServer({ script: answerPrompt });
      });
      afterAll(async () => {
        await server?.close();
      });
      describe.each(users.map((u) => [u.label, u] as const))('as %s', (_label, user) => {
        const proved = new Map<string, { got?: string; output: string }>();
        let sockets: SocketFixtures | undefined;
        let outcome: CorpusOutcome;
        let world: CorpusWorld;
        beforeAll(async () => {
          makeUserRoot(user);
          sockets = await startSocketFixtures(user);
          const plain = makeCorpusWorld(user, 'plain', sockets);
          for (const row of plain.rows) proved.set(row.c.name, await provePlain(plain, row));
          world = makeCorpusWorld(user, 'cli', sockets);
          outcome = await runCorpus(world, server, front);
        }, 600_000);
        afterAll(async () => {
          await sockets?.close();
          removeUserRoots([user]);
        });
        it.each(rowsFor(user).map((c) => [c.name, c] as const))('%s', (name) => {
          const plain = proved.get(name)!;
          expect(plain.got, `the attack must work in plain bash:\n${plain.output}`).toBeDefined();
          const row = world.rows.find((r) => r.c.name === name)!;
          expect(outcome.got.get(row.id), outcome.output.get(row.id)).toBeUndefined();
        });
        it.each(LEGITIMATE.map((l) => [l.name] as const))('legitimately: %s', (name) => {
          const row = world.legit.find((l) => l.l.name === name)!;
          expect(outcome.legit.get(row.id), outcome.output.get(row.id)).toBeUndefined();
        });
        it(`legitimately: ${LSP_LEGIT}`, () => {
          expect(outcome.legit.get(LSP_LEGIT), outcome.output.get(LSP_LEGIT)).toBeUndefined();
        });
        // The language-server rows are real: the next session did read and edit each row's file, as a user would.
        it.each(
          rowsFor(user)
            .filter((c) => c.jarvis?.read)
            .map((c) => [c.name] as const),
        )('the next session edited the file of: %s', (name) => {
          const row = world.rows.find((r) => r.c.name === name)!;
          expect(outcome.edited.get(row.id)).toMatch(/^Edited /);
        });
        it('leaves every file outside the workspace as it was', () => {
          expect(outcome.canaries).toEqual([]);
        });
        if (front === 'acp')
          it('asks again for every request to leave the sandbox, after a session approval of the same command', () => {
            const out = outcome.asked.filter(
              (r) => (r.toolCall.rawInput as { dangerously_unsandboxed?: boolean })?.dangerously_unsandboxed,
            );
            const commands = out.map((r) => (r.toolCall.rawInput as { command: string }).command);
            const rows = world.rows.filter((r) => r.c.escalate);
            expect(commands, JSON.stringify(rows.map((r) => outcome.output.get(r.id)))).toEqual(
              rows.map((r) => r.command),
            );
          });
      });
    },
  );
}
