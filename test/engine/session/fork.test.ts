import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkSession, ForkError } from '../../../src/engine/session/fork';
import type { SessionState } from '../../../src/engine/session/records';
import { Session } from '../../../src/engine/session/session';
import type { Message } from '../../../src/llm/types';
import { listSessions, readSessionSummary } from '../../../src/store/sessionStore';
import { makeEngine, type EngineHarness, verifyEnginesAfterEach, runPrompt } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
verifyEnginesAfterEach();

const textOf = (m: Message) =>
  m.role === 'assistant' ? m.text : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
const prompt = runPrompt;
function identityless(state: SessionState) {
  const { sessionId: _id, createdAt: _c, forkedFrom: _f, planMode: _p, ...rest } = state;
  return rest;
}

describe('fork', () => {
  it('copies transcript, state, plan files and task output into a new session that resumes where the original was', async () => {
    h = makeEngine({
      mode: 'yolo',
      responses: [
        { toolCalls: [{ id: 'c1', name: 'Peek', arguments: { key: 'k', ms: 0 } }] },
        { text: 'a1' },
        { text: 'a2' },
      ],
    });
    const original = h.runtime.session;
    await prompt(h, 'p1');
    // Plans and task output are in the scratch folder, task records beside the journal (docs/sessions.md).
    const planPath = join(original.scratchDir, 'plans', 'main', 'plan-00000001.md');
    mkdirSync(join(original.scratchDir, 'plans', 'main'), { recursive: true });
    writeFileSync(planPath, '# The plan\n');
    original.commit({ type: 'plan_mode', active: true, planPath });
    original.commit({ type: 'todos', todos: [{ title: 'copy me', status: 'pending' }] });
    const taskDir = join(original.dir, 'tasks');
    const outputDir = join(original.scratchDir, 'tasks', 'bash-1');
    mkdirSync(taskDir, { recursive: true });
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(join(outputDir, 'output.log'), 'partial output\n');
    const task = {
      id: 'bash-1',
      kind: 'bash',
      description: 'server',
      command: 'sleep 100',
      status: 'running',
      pid: process.pid,
      startedAt: new Date().toISOString(),
      timeoutMs: null,
      outputPath: join(outputDir, 'output.log'),
      notified: false,
      reported: false,
    };
    writeFileSync(join(taskDir, 'bash-1.json'), JSON.stringify(task));
    writeFileSync(join(original.dir, 'upcoming-goals.json'), '[]');
    const journalBefore = readFileSync(original.journalPath, 'utf8');

    const fork = forkSession(h.runtime, { home: h.home });
    expect(fork.sessionId).not.toBe(original.id);
    expect(fork.resumeCommand).toBe(`jarvis --session ${fork.sessionId}`);
    expect(readFileSync(original.journalPath, 'utf8')).toBe(journalBefore);

    const forkScratch = join(fork.sessionDir, 'scratch');
    expect(readFileSync(join(forkScratch, 'plans', 'main', 'plan-00000001.md'), 'utf8')).toBe('# The plan\n');
    expect(readFileSync(join(forkScratch, 'tasks', 'bash-1', 'output.log'), 'utf8')).toBe('partial output\n');
    const copiedTask = JSON.parse(readFileSync(join(fork.sessionDir, 'tasks', 'bash-1.json'), 'utf8'));
    expect(copiedTask).toMatchObject({
      status: 'failed',
      endReason: 'lost',
      notified: true,
      outputPath: join(forkScratch, 'tasks', 'bash-1', 'output.log'),
    });
    expect(existsSync(join(fork.sessionDir, 'upcoming-goals.json'))).toBe(false);

    const copy = Session.open({ sessionId: fork.sessionId, sessionDir: fork.sessionDir, workDir: h.cwd, home: h.home });
    expect(copy.state.sessionId).toBe(fork.sessionId);
    expect(copy.state.forkedFrom).toBe(original.id);
    expect(identityless(copy.state)).toEqual(identityless(original.state));
    expect(copy.state.planMode).toEqual({
      active: true,
      planPath: join(forkScratch, 'plans', 'main', 'plan-00000001.md'),
    });
    expect(readSessionSummary(fork.sessionDir)).toMatchObject({ sessionId: fork.sessionId, forkedFrom: original.id });
    expect(Session.findById(h.home, fork.sessionId, h.cwd)?.sessionDir).toBe(fork.sessionDir);
    expect(
      listSessions(h.home, h.cwd)
        .map((s) => s.sessionId)
        .sort(),
    ).toEqual([original.id, fork.sessionId].sort());

    // Continue in the copy: the full history travels, the original does not change.
    h.expectReplayIdentical();
    await h.runtime.close({ force: true });
    const location = Session.findById(h.home, fork.sessionId, h.cwd)!;
    h = makeEngine({ responses: [{ text: 'in the fork' }], resume: location, dirs: { home: h.home, cwd: h.cwd } });
    expect(h.runtime.tasks.list().find((t) => t.id === 'bash-1')?.status).toBe('failed');
    await prompt(h, 'p2 in fork');
    const sent = h.client.requests[0].messages.map(textOf);
    expect(sent.slice(0, 5)).toEqual(['p1', '', 'value of k', 'a1', 'p2 in fork']);
    expect(sent.join('\n')).not.toContain(original.dir); // plan mode reminders name the fork's plan file
    expect(readFileSync(original.journalPath, 'utf8')).toBe(journalBefore);
  });

  it('refuses while a turn runs', async () => {
    h = makeEngine({ responses: [{ text: 'slow', delayMs: 30 }] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    expect(() => forkSession(h!.runtime, { home: h!.home })).toThrow(ForkError);
    await h.runtime.agent.idle();
  });
});
