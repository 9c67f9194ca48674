// The session-folder attacks (test/helpers/sessionStateAttacks.ts) followed by an editor's `session/load`, through
// the official ACP SDK's client side on the built CLI: a planted mode or approval record must not make the loaded
// session run anything without asking, a planted task record must not get the canary signalled when the session
// closes, a journal swapped for a link must be refused naming it. The controls show the same records, written by
// Jarvis itself, do come back (docs/sessions.md, "What a resume trusts").
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcpClient, type AcpTestClient } from '../helpers/acpClient';
import type { MockModelServer, ScriptedTurn } from '../helpers/mockModelServer';
import {
  endCanaries,
  escalationProbes,
  expectNothingEscalated,
  makeWorld,
  runUnconfined,
  SECRET_TEXT,
  SESSION_STATE_ATTACKS,
  startPromptedModel,
  type SessionStateAttack,
  type World,
} from '../helpers/sessionStateAttacks';

const canaries: number[] = [];
let server: MockModelServer;
let answer: (replies: Record<string, ScriptedTurn>) => void;

beforeAll(async () => {
  ({ server, answer } = await startPromptedModel());
});

afterAll(async () => {
  endCanaries(canaries);
  await server.close();
});

/** An editor on `w`'s workspace, its permission questions answered with `choice`. */
async function editorOn(w: World, env: NodeJS.ProcessEnv, choice: string): Promise<AcpTestClient> {
  const editor = await startAcpClient({ env, cwd: w.cwd });
  editor.answerPermissions(choice);
  return editor;
}

/** The session is made by an editor, so it is in manual mode (the default) as an editor's sessions are. */
async function editorSession(env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  const editor = await startAcpClient({ env, cwd });
  try {
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd, mcpServers: [] });
    await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
  } finally {
    await editor.close();
  }
}

const world = () => makeWorld(server.baseUrlFor('openai'), canaries, undefined, editorSession);

function load(editor: AcpTestClient, w: World) {
  return editor.connection.agent.request('session/load', {
    sessionId: basename(w.session),
    cwd: w.cwd,
    mcpServers: [],
  });
}

describe('session/load after a session-folder attack', () => {
  const rows = SESSION_STATE_ATTACKS.filter((r) => !r.unprivilegedOnly);
  it.each(rows.map((r): [string, SessionStateAttack] => [r.name, r]))(
    '%s',
    async (_name, row) => {
      const { w, env } = await world();
      expect(runUnconfined(row.command(w.session, w))).toBe(0);
      expect(row.planted(w.session, w)).toBe(true);

      const editor = await editorOn(w, env, 'reject');
      try {
        if (row.expectAfter?.acp) {
          const refused = await load(editor, w).then(
            () => 'loaded',
            (e: Error) => e.message,
          );
          row.expectAfter.acp(refused, w);
          return;
        }
        const loaded = await load(editor, w);
        // The session's own mode (manual) comes back, never one from a record Jarvis cannot authenticate.
        expect(loaded.modes?.currentModeId).toBe('manual');
        // One probe per prompt: a rejection ends its step, so each is asked about on its own.
        const [unsandboxed, write, output] = escalationProbes(w);
        answer({ 'go on': { toolCalls: [unsandboxed] }, 'write it': { toolCalls: [write, output] } });
        const from = server.requests.length;
        const sessionId = basename(w.session);
        for (const text of ['go on', 'write it'])
          await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
        // Both escalating calls were asked about (and rejected), not run by themselves.
        const asked = editor.permissionRequests.map((p) => JSON.stringify(p.toolCall));
        expect(asked.some((t) => t.includes('unsandboxed-ran'))).toBe(true);
        expect(asked.some((t) => t.includes('approved-write.txt'))).toBe(true);
        expect(JSON.stringify(server.requests.slice(from).map((r) => r.body))).not.toContain(SECRET_TEXT);
      } finally {
        await editor.close();
      }
      expectNothingEscalated(w, 'session/load and the session closing');
    },
    300_000,
  );
});

describe('controls: what Jarvis itself recorded comes back with session/load', () => {
  it('a mode set by the editor and an approval given for the session survive a load', async () => {
    const { w, env } = await world();
    const sessionId = basename(w.session);
    const write = (id: string) => ({
      toolCalls: [{ id, name: 'Write', arguments: { path: join(w.out, `${id}.txt`), content: 'x' } }],
    });
    const first = await editorOn(w, env, 'allow_session');
    try {
      await load(first, w);
      answer({ 'write first': write('first') });
      await first.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'write first' }],
      });
      expect(first.permissionRequests).toHaveLength(1);
      expect(existsSync(join(w.out, 'first.txt'))).toBe(true);
      await first.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
    } finally {
      await first.close();
    }
    const second = await editorOn(w, env, 'reject');
    try {
      const loaded = await load(second, w);
      expect(loaded.modes?.currentModeId).toBe('yolo');
      answer({ 'write again': write('again') });
      await second.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'write again' }],
      });
      // The approval given "for this session" still covers it: no question, the file is written.
      expect(second.permissionRequests).toEqual([]);
      expect(existsSync(join(w.out, 'again.txt'))).toBe(true);
    } finally {
      await second.close();
    }
  }, 300_000);
});
