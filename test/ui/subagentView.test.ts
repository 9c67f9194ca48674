// The subagent views without a terminal: the group of foreground Agent calls of one response (states,
// elapsed time, what each subagent does) and the live swarm panel, driven by the engine's events.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, EngineEventBody } from '../../src/engine/loop/events';
import { elapsedLabel } from '../../src/ui/subagents/subagentGroup';
import { SwarmPanel } from '../../src/ui/subagents/swarmPanel';
import { LiveRegion } from '../../src/ui/liveRegion';
import { loadTheme } from '../../src/ui/theme';
import { Transcript } from '../../src/ui/transcript/transcript';
import { ToolCard } from '../../src/ui/transcript/toolCard';
import { TurnView } from '../../src/ui/turnView';

const theme = loadTheme('dark', '/nonexistent').theme;
const strip = (lines: string[]) => lines.join('\n').replace(/\x1b\[[0-9;]*m/g, '');

function setup() {
  const view = { theme, expanded: false, cwd: '/w' };
  const scrollback: string[] = [];
  const transcript = new Transcript(
    (lines) => scrollback.push(...lines),
    () => 100,
  );
  const host = { requestRender() {}, onUsage() {}, onTurnStart() {}, onTurnEnd() {}, onMode() {} };
  const turn = new TurnView(view, transcript, host);
  const swarm = new SwarmPanel(
    () => theme,
    () => turn.subagents.activeSwarm,
  );
  return {
    turn,
    transcript,
    live: () => strip(transcript.render(100)),
    scrollback: () => strip(scrollback),
    swarm: () => strip(swarm.render(100)),
    child: (agentId: string, event: EngineEventBody) =>
      turn.subagents.onChildEvent({ ...event, agentId } as EngineEvent),
  };
}

const agentCall = (id: string, args: Record<string, unknown>) => ({
  id,
  name: 'Agent',
  arguments: JSON.stringify({ prompt: 'p', ...args }),
});
const started = (callId: string, childId: string, description: string, agentName = 'coder'): EngineEventBody => ({
  type: 'subagent',
  change: 'started',
  childId,
  agentName,
  prompt: 'p',
  parentCallId: callId,
  description,
});
const stopped = (
  callId: string,
  childId: string,
  status: string,
  elapsedMs: number,
  error?: string,
): EngineEventBody => ({
  type: 'subagent',
  change: 'stopped',
  childId,
  agentName: 'coder',
  status,
  response: 'r',
  parentCallId: callId,
  elapsedMs,
  ...(error ? { error } : {}),
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('grouped foreground subagents', () => {
  it('several Agent calls of one response form one group: waiting, running (with what each does), waiting for you, completed, failed, with elapsed time', () => {
    const ui = setup();
    const calls = [
      agentCall('c1', { description: 'fix the login' }),
      agentCall('c2', { description: 'find callers', subagent_type: 'explore' }),
      agentCall('c3', { description: 'write docs' }),
    ];
    ui.turn.handle({ type: 'assistant_message', text: '', toolCalls: calls });
    for (const call of calls) ui.turn.handle({ type: 'tool_call', call, subject: 'Agent' });
    // One block for the three calls, no tool cards.
    expect(ui.transcript.liveBlocks).toHaveLength(1);
    expect(ui.live()).toContain('3 agents 3 waiting');
    expect(ui.live()).toMatch(/○ fix the login \(coder\) waiting · 0s/);

    ui.turn.handle(started('c1', 'a1', 'fix the login'));
    ui.turn.handle(started('c2', 'a2', 'find callers', 'explore'));
    vi.setSystemTime(new Date('2026-01-01T00:00:05Z'));
    expect(
      ui.child('a1', {
        type: 'tool_call',
        call: { id: 't', name: 'Bash', arguments: '{"command":"npm test"}' },
        subject: 'Bash(npm test)',
      }),
    ).toBe(true);
    ui.child('a2', {
      type: 'approval_request',
      callId: 't2',
      toolName: 'Write',
      subject: 'Write(/w/x)',
      reason: 'writes',
    });
    let text = ui.live();
    expect(text).toContain('3 agents 1 running · 2 waiting');
    expect(text).toMatch(/◐ fix the login \(coder\) running · 5s\n\s+⎿ Bash npm test/);
    expect(text).toMatch(/○ find callers \(explore\) waiting for you · 5s/);
    expect(text).toMatch(/○ write docs \(coder\) waiting · 5s/);

    // The clock advances by itself while members run.
    vi.setSystemTime(new Date('2026-01-01T00:01:07Z'));
    expect(ui.live()).toContain('running · 1m 07s');

    ui.child('a2', { type: 'approval_decision', callId: 't2', subject: 'Write(/w/x)', decision: 'allow', by: 'user' });
    ui.turn.handle(stopped('c1', 'a1', 'completed', 4200));
    ui.turn.handle(stopped('c2', 'a2', 'timed_out', 9000, 'timed out after 9.0 s'));
    ui.turn.handle(started('c3', 'a3', 'write docs'));
    text = ui.live();
    expect(text).toMatch(/✓ fix the login \(coder\) completed · 4s/);
    expect(text).toMatch(/✗ find callers \(explore\) failed · 9s — timed out after 9\.0 s/);
    expect(text).toContain('1 running · 1 completed · 1 failed');
    expect(ui.scrollback()).toBe('');

    // Once every member has finished the group moves to the scrollback, before the results arrive.
    ui.turn.handle(stopped('c3', 'a3', 'completed', 1000));
    expect(ui.transcript.liveBlocks).toHaveLength(0);
    expect(ui.scrollback()).toContain('3 agents 2 completed · 1 failed');
    for (const id of ['c1', 'c2', 'c3'])
      ui.turn.handle({ type: 'tool_result', callId: id, toolName: 'Agent', text: 'agent_id: …', isError: id === 'c2' });
    expect(ui.transcript.committed).toHaveLength(1);
  });

  it('a refused call fails with the reason; background calls keep their tool card; each response gets its own group', () => {
    const ui = setup();
    const first = [
      agentCall('c1', { description: 'wizardry', subagent_type: 'wizard' }),
      agentCall('c2', { description: 'later', run_in_background: true }),
    ];
    ui.turn.handle({ type: 'assistant_message', text: '', toolCalls: first });
    for (const call of first) ui.turn.handle({ type: 'tool_call', call, subject: 'Agent' });
    ui.turn.handle({
      type: 'tool_result',
      callId: 'c1',
      toolName: 'Agent',
      text: 'Cannot start the subagent: there is no subagent type "wizard".\nmore',
      isError: true,
    });
    ui.turn.handle({
      type: 'tool_result',
      callId: 'c2',
      toolName: 'Agent',
      text: 'Started subagent a9 in the background',
      isError: false,
    });
    const [group, card] = ui.transcript.committed;
    expect(strip(group.render(100))).toMatch(
      /1 failed\n.*✗ wizardry \(wizard\) failed · 0s — Cannot start the subagent: there is no subagent type "wizard"\./,
    );
    expect(card).toBeInstanceOf(ToolCard);

    const second = [agentCall('c3', { description: 'again' })];
    ui.turn.handle({ type: 'assistant_message', text: '', toolCalls: second });
    ui.turn.handle({ type: 'tool_call', call: second[0], subject: 'Agent' });
    expect(ui.live()).toContain('Agent 1 waiting');
    // An interrupted turn fails what did not finish.
    ui.turn.handle({ type: 'turn_end', turnId: 't', reason: 'interrupted' });
    expect(ui.scrollback()).toMatch(/✗ again \(coder\) failed · 0s — interrupted/);
  });
});

describe('swarm panel', () => {
  it('shows started/running/done/failed/queued counts, one glyph per member, running members with their activity, and goes away with the result', () => {
    const ui = setup();
    const call = {
      id: 's1',
      name: 'AgentSwarm',
      arguments: JSON.stringify({
        prompt_template: 'check {{item}}',
        items: ['a.ts', 'b.ts', 'c.ts', 'd.ts'],
        resume_agent_ids: ['a0'],
      }),
    };
    ui.turn.handle({ type: 'assistant_message', text: '', toolCalls: [call] });
    ui.turn.handle({ type: 'tool_call', call, subject: 'AgentSwarm' });
    expect(ui.swarm()).toContain('Agent swarm 0/5 started · 0 running · 0 done · 0 failed · 5 queued · 0s');
    // The call keeps its tool card (the report lands there).
    expect(ui.transcript.liveBlocks[0]).toBeInstanceOf(ToolCard);

    ui.turn.handle(started('s1', 'a0', 'resume a0'));
    ui.turn.handle(started('s1', 'm1', 'a.ts'));
    ui.turn.handle(started('s1', 'm2', 'b.ts'));
    vi.setSystemTime(new Date('2026-01-01T00:00:03Z'));
    ui.child('m2', {
      type: 'tool_call',
      call: { id: 't', name: 'Read', arguments: '{"path":"/w/b.ts"}' },
      subject: 'Read',
    });
    ui.turn.handle(stopped('s1', 'a0', 'completed', 2000));
    ui.turn.handle(stopped('s1', 'm1', 'failed', 2500, 'the model returned an error'));
    let text = ui.swarm();
    expect(text).toContain('3/5 started · 1 running · 1 done · 1 failed · 2 queued · 3s');
    expect(text).toContain('✓ ✗ ◐ · ·');
    expect(text).toMatch(/◐ b\.ts \(coder\) running · 3s\n\s+⎿ Read b\.ts/);

    ui.child('m2', { type: 'approval_request', callId: 't3', toolName: 'Bash', subject: 'Bash(x)', reason: 'runs' });
    expect(ui.swarm()).toContain('1 waiting for you');

    // Rendered above the input box.
    const region = new LiveRegion({
      theme: () => theme,
      transcript: ui.transcript,
      swarm: new SwarmPanel(
        () => theme,
        () => ui.turn.subagents.activeSwarm,
      ),
      activity: () => undefined,
      queued: () => [],
      panel: () => undefined,
      input: { render: () => ['INPUT'], invalidate() {} },
      footer: { render: () => [], invalidate() {} },
    });
    text = strip(region.render(100));
    expect(text.indexOf('Agent swarm')).toBeLessThan(text.indexOf('INPUT'));

    ui.turn.handle({
      type: 'tool_result',
      callId: 's1',
      toolName: 'AgentSwarm',
      text: 'Swarm finished',
      isError: false,
    });
    expect(ui.swarm()).toBe('');
  });

  it('elapsed labels', () => {
    expect([elapsedLabel(0), elapsedLabel(59_999), elapsedLabel(65_000), elapsedLabel(3_600_000)]).toEqual([
      '0s',
      '59s',
      '1m 05s',
      '60m 00s',
    ]);
  });
});
