import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CronClock } from '../../../src/engine/background/cronScheduler';
import { forkSession } from '../../../src/engine/session/fork';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import type { Message } from '../../../src/llm/types';
import { builtinTools } from '../../../src/tools/registry';
import { cronDisabled, cronTools, MAX_CRON_JOBS, MAX_CRON_PROMPT_BYTES } from '../../../src/tools/cron';
import { makeEngine, runPrompt, type EngineHarness, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A clock the test moves: `advance` fires timers on time; `sleep` jumps and fires them late (a laptop waking). */
class FakeClock implements CronClock {
  private timers: Array<{ at: number; fn: () => void }> = [];
  constructor(public t: number) {}
  now = () => this.t;
  setTimer = (fn: () => void, ms: number) => {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return timer;
  };
  clearTimer = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t !== handle);
  };
  advance(ms: number): void {
    const target = this.t + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = target;
  }
  sleep(ms: number): void {
    this.t += ms;
    this.advance(0);
  }
}

const at = (y: number, mo: number, d: number, h: number, mi: number, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s).getTime();
const textOf = (m: Message) =>
  m.role === 'assistant' ? m.text : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

/** Model turns the test queues as it goes; an empty queue answers "ok". */
function engine(
  clock: FakeClock,
  extra: Partial<Parameters<typeof makeEngine>[0]> = {},
  script: ScriptedResponse[] = [],
): EngineHarness {
  return makeEngine({
    mode: 'yolo',
    tools: cronTools,
    cron: { clock },
    responses: () => script.shift() ?? { text: 'ok' },
    ...extra,
  });
}

function fireMessages(h: EngineHarness): string[] {
  return h.runtime.session.state.messages
    .filter((m) => m.role === 'user')
    .map(textOf)
    .filter((t) => t.includes('<cron-fire'));
}

describe('CronCreate, CronList, CronDelete', () => {
  it('CronCreate returns an 8-hex id, the schedule in words and the next fire; recurring by default', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = makeEngine({
      mode: 'yolo',
      tools: cronTools,
      cron: { clock },
      responses: [
        { toolCalls: [{ name: 'CronCreate', arguments: { cron: '*/10 * * * *', prompt: 'check the build' } }] },
        { text: 'scheduled' },
      ],
    });
    await runPrompt(h, 'watch the build');
    const [result] = h.eventsOf('tool_result');
    expect(result.isError).toBeFalsy();
    const id = /^id: ([0-9a-f]{8})$/m.exec(result.text)?.[1];
    expect(id).toBeDefined();
    expect(result.text).toContain('humanSchedule: every 10 minutes');
    const next = /^nextFireAt: (\S+)$/m.exec(result.text)![1];
    expect(new Date(next).toISOString()).toBe(next);
    // 10:10 plus this id's share of 60 s (10 % of the 10-minute period).
    expect(Date.parse(next) - at(2026, 3, 2, 10, 10)).toBeGreaterThanOrEqual(0);
    expect(Date.parse(next) - at(2026, 3, 2, 10, 10)).toBeLessThan(MINUTE);
    expect(h.runtime.cron.list()).toMatchObject([{ id, recurring: true, stale: false, ageDays: 0 }]);
  });

  it('rejects a bad expression naming the field, an oversized prompt, an empty one and a 51st task', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock, {
      responses: [
        { toolCalls: [{ name: 'CronCreate', arguments: { cron: '0 25 * * *', prompt: 'x' } }] },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'go');
    const [bad] = h.eventsOf('tool_result');
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/the hour field "25" is out of range 0-23/);

    const cron = h.runtime.cron;
    const fits = 'é'.repeat(MAX_CRON_PROMPT_BYTES / 2); // 2 bytes each: exactly the limit
    expect(cron.create({ cron: '* * * * *', prompt: fits, recurring: true }).ok).toBe(true);
    const over = cron.create({ cron: '* * * * *', prompt: `${fits}a`, recurring: true });
    expect(over).toEqual({ ok: false, message: expect.stringMatching(/8193 bytes \(UTF-8\); the limit is 8192/) });
    expect(cron.create({ cron: '* * * * *', prompt: '  ', recurring: true }).ok).toBe(false);
    for (let i = 1; i < MAX_CRON_JOBS; i++)
      expect(cron.create({ cron: '0 9 * * *', prompt: `job ${i}`, recurring: true }).ok).toBe(true);
    const extra = cron.create({ cron: '0 9 * * *', prompt: 'one too many', recurring: true });
    expect(extra).toEqual({ ok: false, message: expect.stringMatching(/already has 50 scheduled tasks/) });
    expect(cron.list()).toHaveLength(MAX_CRON_JOBS);
  });

  it('CronList: one record per task with every field, separated by ---, soonest first', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock, {
      responses: [
        { toolCalls: [{ name: 'CronList', arguments: {} }] },
        { text: 'none' },
        { toolCalls: [{ name: 'CronList', arguments: {} }] },
        { text: 'listed' },
      ],
    });
    await runPrompt(h, 'list');
    expect(h.eventsOf('tool_result')[0].text).toBe('No scheduled tasks in this session.');
    const late = h.runtime.cron.create({ cron: '0 23 * * *', prompt: 'nightly', recurring: true });
    const soon = h.runtime.cron.create({ cron: '15 10 * * *', prompt: 'soon', recurring: false });
    await runPrompt(h, 'list again');
    const records = h.eventsOf('tool_result')[1].text.split('\n---\n');
    expect(records).toHaveLength(2);
    expect(records[0]).toContain(`id: ${soon.ok && soon.job.id}`);
    expect(records[1]).toContain(`id: ${late.ok && late.job.id}`);
    for (const field of ['id', 'cron', 'humanSchedule', 'nextFireAt', 'recurring', 'ageDays', 'stale'])
      expect(records[0]).toMatch(new RegExp(`^${field}: `, 'm'));
    expect(records[0]).toContain('recurring: false');
    expect(records[0]).toContain('humanSchedule: once, at 10:15 on 2026-03-02');
  });

  it('CronDelete stops a task; an unknown id and a fired one-shot get "No cron job with id …"', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const script: ScriptedResponse[] = [];
    const h = engine(clock, {}, script);
    const recurring = h.runtime.cron.create({ cron: '*/5 * * * *', prompt: 'tick', recurring: true });
    const once = h.runtime.cron.create({ cron: '7 10 * * *', prompt: 'ring', recurring: false });
    if (!recurring.ok || !once.ok) throw new Error('create failed');
    clock.advance(6 * MINUTE); // 10:08: the one-shot (10:07) and the recurring one (10:05) fired
    await h.runtime.agent.idle();
    expect(fireMessages(h)).toHaveLength(2);
    script.push(
      { toolCalls: [{ name: 'CronDelete', arguments: { id: recurring.job.id } }] },
      { toolCalls: [{ name: 'CronDelete', arguments: { id: once.job.id } }] },
      { toolCalls: [{ name: 'CronDelete', arguments: { id: 'deadbeef' } }] },
      { text: 'done' },
    );
    await runPrompt(h, 'clean up');
    const results = h.eventsOf('tool_result').map((r) => r.text);
    expect(results[0]).toBe(`Deleted scheduled task ${recurring.job.id}; it will not fire again.`);
    expect(results[1]).toMatch(new RegExp(`^No cron job with id ${once.job.id}\\.`));
    expect(results[2]).toMatch(/^No cron job with id deadbeef\./);
    clock.advance(60 * MINUTE);
    await h.runtime.agent.idle();
    expect(fireMessages(h)).toHaveLength(2);
  });

  it('CronDelete is blocked in plan mode; CronList is not', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock, {
      planMode: true,
      responses: [
        {
          toolCalls: [
            { name: 'CronDelete', arguments: { id: 'whatever' } },
            { name: 'CronList', arguments: {} },
          ],
        },
        { text: 'ok' },
      ],
    });
    const job = h.runtime.cron.create({ cron: '*/5 * * * *', prompt: 'tick', recurring: true });
    await runPrompt(h, 'try');
    const [del, list] = h.eventsOf('tool_result');
    expect(del.isError).toBe(true);
    expect(del.text).toMatch(/CronDelete is blocked in plan mode/);
    expect(list.isError).toBeFalsy();
    expect(h.runtime.cron.list().map((j) => j.id)).toEqual([job.ok && job.job.id]);
  });
});

describe('firing', () => {
  it('a one-shot fires once as its own turn (origin cron, <cron-fire> envelope) and is then gone', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    const once = h.runtime.cron.create({ cron: '10 10 * * *', prompt: 'remind me to stretch', recurring: false });
    if (!once.ok) throw new Error(once.message);
    expect(once.job.nextFireAt).toBe(new Date(at(2026, 3, 2, 10, 10)).toISOString()); // not on :00/:30: no jitter
    clock.advance(7 * MINUTE);
    await h.runtime.agent.idle();
    expect(fireMessages(h)).toEqual([]);
    clock.advance(MINUTE);
    await h.runtime.agent.idle();
    const [fire] = fireMessages(h);
    expect(fire).toContain(
      `<cron-fire id="${once.job.id}" cron="10 10 * * *" scheduledFor="${new Date(at(2026, 3, 2, 10, 10)).toISOString()}" recurring="false" coalescedCount="1">`,
    );
    expect(fire).toContain('remind me to stretch');
    expect(h.eventsOf('turn_start').map((e) => e.origin)).toEqual(['cron']);
    expect(h.runtime.cron.list()).toEqual([]);
    clock.advance(2 * DAY);
    await h.runtime.agent.idle();
    expect(fireMessages(h)).toHaveLength(1);
  });

  it('a one-shot on :00 or :30 moves forward by at most 90 s, the same for the same id', () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    const shifts = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const r = h.runtime.cron.create({ cron: '30 11 * * *', prompt: `p${i}`, recurring: false });
      if (!r.ok) throw new Error(r.message);
      const shift = Date.parse(r.job.nextFireAt) - at(2026, 3, 2, 11, 30);
      expect(shift).toBeGreaterThanOrEqual(0);
      expect(shift).toBeLessThan(90_000);
      shifts.add(shift);
      expect(h.runtime.cron.list().find((j) => j.id === r.job.id)!.nextFireAt).toBe(r.job.nextFireAt);
    }
    expect(shifts.size).toBeGreaterThan(1); // spread by id
  });

  it('a recurring task fires every period, each time within its jitter, and stays', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    const r = h.runtime.cron.create({ cron: '*/10 * * * *', prompt: 'poll', recurring: true });
    if (!r.ok) throw new Error(r.message);
    const offset = Date.parse(r.job.nextFireAt) - at(2026, 3, 2, 10, 10);
    clock.advance(at(2026, 3, 2, 10, 10) - clock.t + offset - 1);
    await h.runtime.agent.idle();
    expect(fireMessages(h)).toHaveLength(0);
    clock.advance(1);
    await h.runtime.agent.idle();
    expect(fireMessages(h)).toHaveLength(1);
    // Time passes with the agent idle: each fire gets its own turn (a fire still waiting would merge).
    for (let i = 0; i < 2; i++) {
      clock.advance(10 * MINUTE);
      await h.runtime.agent.idle();
    }
    expect(fireMessages(h)).toHaveLength(3);
    expect(fireMessages(h).every((f) => f.includes('coalescedCount="1"'))).toBe(true);
    expect(h.runtime.cron.list()[0].nextFireAt).toBe(new Date(at(2026, 3, 2, 10, 40) + offset).toISOString());
  });

  it('fire times missed while asleep coalesce into one fire with coalescedCount', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    h.runtime.cron.create({ cron: '*/10 * * * *', prompt: 'poll', recurring: true });
    clock.sleep(45 * MINUTE); // 10:47: 10:10, 10:20, 10:30 and 10:40 were missed
    await h.runtime.agent.idle();
    const fires = fireMessages(h);
    expect(fires).toHaveLength(1);
    expect(fires[0]).toContain('coalescedCount="4"');
    expect(fires[0]).toContain(`scheduledFor="${new Date(at(2026, 3, 2, 10, 40)).toISOString()}"`);
    expect(fires[0]).toMatch(/4 scheduled times were missed/);
  });

  it('a recurring task older than 7 days fires a last time with stale="true" and is deleted', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    const r = h.runtime.cron.create({ cron: '0 9 * * *', prompt: 'daily report', recurring: true });
    if (!r.ok) throw new Error(r.message);
    for (let day = 0; day < 7; day++) {
      clock.advance(DAY); // seven daily fires, none stale, each taken by the idle agent
      await h.runtime.agent.idle();
    }
    expect(fireMessages(h)).toHaveLength(7);
    expect(fireMessages(h).some((f) => f.includes('stale'))).toBe(false);
    clock.advance(2 * MINUTE); // 7 days and 2 minutes old: CronList says its next fire is its last
    expect(h.runtime.cron.list()[0]).toMatchObject({ stale: true, ageDays: 7 });
    clock.advance(DAY);
    await h.runtime.agent.idle();
    const last = fireMessages(h).at(-1)!;
    expect(last).toContain('stale="true"');
    expect(last).toMatch(/this was its last fire and it has been deleted/);
    expect(h.runtime.cron.list()).toEqual([]);
  });

  it('a fire during a running turn waits for it: never interleaved, its own turn afterwards', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    let fired = false;
    const h = engine(clock, {
      responses: (_req, i) => {
        if (i === 0) return { toolCalls: [{ name: 'CronList', arguments: {} }] };
        if (i === 1 && !fired) {
          // The task fires while the first turn is between steps.
          fired = true;
          clock.advance(10 * MINUTE);
        }
        return { text: `answer ${i}` };
      },
    });
    h.runtime.cron.create({ cron: '5 10 * * *', prompt: 'scheduled work', recurring: false });
    await runPrompt(h, 'user work');
    await h.runtime.agent.idle();
    const starts = h.eventsOf('turn_start');
    expect(starts.map((s) => s.origin)).toEqual(['user', 'cron']);
    const firstTurn = h.client.requests[1].messages.map(textOf).join('\n');
    expect(firstTurn).not.toContain('cron-fire');
    expect(textOf(h.client.requests[2].messages.at(-1)!)).toContain('scheduled work');
  });
});

describe('fires while the agent is busy', () => {
  it('a job firing every minute during a 10-minute turn waits as one fire, merged, with coalescedCount', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 0, 30));
    const h = engine(clock, {
      responses: (_req, i) => {
        if (i === 0) return { toolCalls: [{ name: 'CronList', arguments: {} }] };
        // The first turn takes ten minutes: the job comes due ten times while it runs.
        if (i === 1) for (let m = 0; m < 10; m++) clock.advance(MINUTE);
        return { text: `answer ${i}` };
      },
    });
    const r = h.runtime.cron.create({ cron: '* * * * *', prompt: 'check the build', recurring: true });
    if (!r.ok) throw new Error(r.message);
    await runPrompt(h, 'long work');
    await h.runtime.agent.idle();
    expect(h.eventsOf('turn_start').map((s) => s.origin)).toEqual(['user', 'cron']);
    const fires = fireMessages(h);
    expect(fires).toHaveLength(1);
    expect(fires[0]).toMatch(/coalescedCount="(9|10)"/);
    expect(fires[0]).toMatch(/scheduled times were missed while the agent was busy/);
    // The model of the cron turn read the merged fire: one user message, not ten.
    expect(h.client.requests.at(-1)!.messages.filter((m) => textOf(m).includes('<cron-fire'))).toHaveLength(1);
  });

  it('once its fire has begun its turn, the next fire of the job is a new one', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 0, 30));
    const h = engine(clock);
    h.runtime.cron.create({ cron: '* * * * *', prompt: 'tick', recurring: true });
    for (let i = 0; i < 3; i++) {
      clock.advance(MINUTE);
      await h.runtime.agent.idle();
    }
    expect(fireMessages(h)).toHaveLength(3);
    expect(fireMessages(h).every((f) => f.includes('coalescedCount="1"'))).toBe(true);
  });
});

describe('CronCreate belongs to the main agent', () => {
  it('a subagent is never offered CronCreate or CronDelete; a call to them is refused before validation', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    let subagentCalls = 0;
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      cron: { clock },
      responses: (req) => {
        if (/# Your role: subagent/.test(req.system)) {
          expect(req.tools.map((t) => t.name)).not.toContain('CronCreate');
          expect(req.tools.map((t) => t.name)).not.toContain('CronDelete');
          const bad = { cron: 'not a cron', prompt: '' };
          return subagentCalls++ === 0 ? { toolCalls: [{ name: 'CronCreate', arguments: bad }] } : { text: 'sub done' };
        }
        if (req.messages.some((m) => m.role === 'tool')) return { text: 'main done' };
        const delegate = { description: 'd', prompt: 'schedule it', subagent_type: 'coder' };
        return { toolCalls: [{ name: 'Agent', arguments: delegate }] };
      },
    });
    await runPrompt(h, 'go');
    const refused = h.eventsOf('tool_result').find((r) => r.toolName === 'CronCreate')!;
    expect(refused).toMatchObject({ isError: true });
    expect(refused.text).toMatch(/^Unknown tool "CronCreate"/);
    expect(refused.text).not.toMatch(/cron expression|prompt is empty/);
    expect(h.runtime.cron.list()).toEqual([]);
  });

  it('an expression typed with extra spaces is stored and listed with single spaces', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    const r = h.runtime.cron.create({ cron: '  */10   *  * * *  ', prompt: 'poll', recurring: true });
    if (!r.ok) throw new Error(r.message);
    expect(r.job.cron).toBe('*/10 * * * *');
    expect(h.runtime.cron.list()[0].cron).toBe('*/10 * * * *');
    const saved = JSON.parse(readFileSync(join(h.runtime.session.dir, 'cron', 'jobs.json'), 'utf8'));
    expect(saved.jobs[0].cron).toBe('*/10 * * * *');
  });
});

describe('with the session', () => {
  it('jobs persist with the session, reload on resume (missed fires delivered once), and are not copied to a fork', async () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    const r = h.runtime.cron.create({ cron: '*/10 * * * *', prompt: 'poll', recurring: true });
    if (!r.ok) throw new Error(r.message);
    const saved = JSON.parse(readFileSync(join(h.runtime.session.dir, 'cron', 'jobs.json'), 'utf8')) as {
      jobs: Array<{ id: string }>;
    };
    expect(saved.jobs.map((j) => j.id)).toEqual([r.job.id]);

    const fork = forkSession(h.runtime, { home: h.home });
    expect(existsSync(join(fork.sessionDir, 'cron'))).toBe(false);
    await h.runtime.close();

    clock.t += 35 * MINUTE; // the process was gone for 35 minutes
    const resumed = engine(clock, { resume: h.runtime.session.location, dirs: { home: h.home, cwd: h.cwd } });
    expect(resumed.runtime.cron.list().map((j) => j.id)).toEqual([r.job.id]);
    clock.advance(0); // the timer armed on start is already due
    await resumed.runtime.agent.idle();
    const fires = fireMessages(resumed);
    expect(fires).toHaveLength(1);
    expect(fires[0]).toContain('coalescedCount="3"');
    await resumed.runtime.close();

    const forked = engine(clock, {
      resume: { workDir: h.cwd, sessionId: fork.sessionId, sessionDir: fork.sessionDir, home: h.home },
      dirs: { home: h.home, cwd: h.cwd },
    });
    expect(forked.runtime.cron.list()).toEqual([]);
    const fresh = engine(clock, { dirs: { home: h.home, cwd: h.cwd } });
    expect(fresh.runtime.cron.list()).toEqual([]);
  });

  it('an unreadable jobs file is kept aside with a warning; the session starts without jobs', () => {
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    h.runtime.cron.create({ cron: '*/10 * * * *', prompt: 'poll', recurring: true });
    const file = join(h.runtime.session.dir, 'cron', 'jobs.json');
    writeFileSync(file, '{"version": 1, "jobs": [');
    void h.runtime.close();
    const resumed = engine(clock, { resume: h.runtime.session.location, dirs: { home: h.home, cwd: h.cwd } });
    expect(resumed.runtime.cron.list()).toEqual([]);
    const warning = resumed.eventsOf('notice').find((n) => n.text.includes('could not be loaded'));
    expect(warning?.text).toMatch(/the file was kept as .*jobs\.json\.unreadable-\d+/);
    const kept = readdirSync(join(h.runtime.session.dir, 'cron')).find((n) => n.startsWith('jobs.json.unreadable-'))!;
    expect(readFileSync(join(h.runtime.session.dir, 'cron', kept), 'utf8')).toBe('{"version": 1, "jobs": [');
  });

  it('JARVIS_DISABLE_CRON=1 removes the tools and nothing fires', async () => {
    expect(cronDisabled({ JARVIS_DISABLE_CRON: '1' })).toBe(true);
    expect(cronDisabled({})).toBe(false);
    expect(builtinTools({ cron: false }).map((t) => t.name)).not.toContain('CronCreate');
    expect(builtinTools().map((t) => t.name)).toEqual(expect.arrayContaining(['CronCreate', 'CronList', 'CronDelete']));
    const clock = new FakeClock(at(2026, 3, 2, 10, 2));
    const h = engine(clock);
    h.runtime.cron.create({ cron: '*/10 * * * *', prompt: 'poll', recurring: true });
    await h.runtime.close();
    const off = engine(clock, {
      resume: h.runtime.session.location,
      dirs: { home: h.home, cwd: h.cwd },
      cron: { clock, disabled: true },
    });
    clock.sleep(DAY);
    await off.runtime.agent.idle();
    expect(fireMessages(off)).toEqual([]);
    expect(off.runtime.cron.pendingOneShots()).toEqual([]);
  });
});
