// What a resume takes from the journal (docs/sessions.md, "What a resume trusts"): permission records count only
// when authenticated for this session and agent with the data root's key; everything else keeps today's handling.
// Rows: {name, setup (a session and what is appended to its journal), check (the state a resume rebuilds)}.
import { appendFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkSession } from '../../../src/engine/session/fork';
import { Session } from '../../../src/engine/session/session';
import { recordKeyPath } from '../../../src/store/paths';
import {
  makeEngine,
  runPrompt,
  skipReplayCheck,
  verifyEnginesAfterEach,
  type EngineHarness,
} from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const line = (body: Record<string, unknown>) => `${JSON.stringify({ v: 1, ts: 1, ...body })}\n`;

/** The journal's records of one type, parsed. */
function recordsOf(path: string, type: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.type === type);
}

interface Row {
  name: string;
  /** Appends to (or changes) the journal of `h`'s session; `other` is a second session of the same home. */
  attack(h: EngineHarness, other: EngineHarness): void;
  check(resumed: Session, h: EngineHarness): void;
}

const rows: Row[] = [
  {
    name: 'a mode record without a tag',
    attack: (h) => appendFileSync(h.runtime.session.journalPath, line({ type: 'mode', mode: 'yolo' })),
    check: (s) => {
      expect(s.state.mode).toBe('manual');
      expect(s.warnings.join('\n')).toMatch(/1 permission record was not applied \(mode yolo\)/);
    },
  },
  {
    name: 'a session approval with a made-up tag',
    attack: (h) =>
      appendFileSync(
        h.runtime.session.journalPath,
        line({ type: 'session_approval', pattern: 'Write(/etc/**)', auth: 'f'.repeat(64) }),
      ),
    check: (s) => expect(s.state.sessionApprovals).not.toContain('Write(/etc/**)'),
  },
  {
    name: "an authentic record copied from another session of the same machine (bound to that session's id)",
    attack: (h, other) => {
      other.runtime.session.commit({ type: 'mode', mode: 'yolo' });
      const copied = recordsOf(other.runtime.session.journalPath, 'mode').at(-1)!;
      appendFileSync(h.runtime.session.journalPath, `${JSON.stringify(copied)}\n`);
    },
    check: (s) => expect(s.state.mode).toBe('manual'),
  },
  {
    name: 'an authentic approval whose pattern was widened afterwards',
    attack: (h) => {
      h.runtime.session.commit({ type: 'session_approval', pattern: `Write(${h.cwd}/notes/**)` });
      const text = readFileSync(h.runtime.session.journalPath, 'utf8');
      writeFileSync(h.runtime.session.journalPath, text.replace(`Write(${h.cwd}/notes/**)`, 'Write(/**)'));
    },
    check: (s) => expect(s.state.sessionApprovals).toEqual([]),
  },
  {
    name: "a subagent's authentic approval copied into the main journal (bound to its agent)",
    attack: (h) => {
      const { session: sub } = Session.forAgent(h.runtime.session, {
        id: 'sub1',
        parent: 'main',
        modelAlias: 'test',
        mode: 'manual',
        systemPrompt: 'sub',
      });
      sub.commit({ type: 'session_approval', pattern: 'Bash(rm *)' });
      const copied = recordsOf(sub.journalPath, 'session_approval').at(-1)!;
      appendFileSync(h.runtime.session.journalPath, `${JSON.stringify(copied)}\n`);
    },
    check: (s) => expect(s.state.sessionApprovals).toEqual([]),
  },
  {
    name: 'a journal written before tags existed: only "manual" records, so no warning',
    attack: (h) => {
      const text = readFileSync(h.runtime.session.journalPath, 'utf8');
      writeFileSync(h.runtime.session.journalPath, text.replace(/,"auth":"[0-9a-f]{64}"/g, ''));
    },
    check: (s) => {
      expect(s.state.mode).toBe('manual');
      expect(s.modeRestored).toBe(false);
      expect(s.warnings).toEqual([]);
    },
  },
  {
    name: 'a key replaced by a link: nothing is trusted, and the warning names the key',
    attack: (h) => {
      h.runtime.session.commit({ type: 'mode', mode: 'yolo' });
      rmSync(recordKeyPath(h.home));
      symlinkSync('/dev/null', recordKeyPath(h.home));
    },
    check: (s, h) => {
      expect(s.state.mode).toBe('manual');
      expect(s.warnings.join('\n')).toContain(`the record key ${recordKeyPath(h.home)} cannot be used`);
    },
  },
];

describe('resuming a session whose journal was written by something else', () => {
  it.each(rows.map((r): [string, Row] => [r.name, r]))('%s', async (_name, row) => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    const other = makeEngine({ responses: [], dirs: { home: h.home, cwd: h.cwd } });
    skipReplayCheck(h, other);
    await runPrompt(h, 'hello');
    row.attack(h, other);
    const resumed = Session.open(h.runtime.session.location);
    row.check(resumed, h);
  });

  it('authentic records come back: the mode set and the approvals given in the session', async () => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    await runPrompt(h, 'hello');
    h.runtime.session.commit({ type: 'mode', mode: 'yolo' });
    h.runtime.session.commit({ type: 'session_approval', pattern: `Write(${h.cwd}/notes/**)` });
    const resumed = Session.open(h.runtime.session.location);
    expect(resumed.state.mode).toBe('yolo');
    expect(resumed.modeRestored).toBe(true);
    expect(resumed.state.sessionApprovals).toEqual([`Write(${h.cwd}/notes/**)`]);
    expect(resumed.warnings).toEqual([]);
  });

  it('a resume with no authentic mode takes the mode it is started with, and records it (authenticated)', async () => {
    const h = makeEngine({ mode: 'yolo', responses: [{ text: 'ok' }] });
    await runPrompt(h, 'hello');
    const text = readFileSync(h.runtime.session.journalPath, 'utf8');
    writeFileSync(h.runtime.session.journalPath, text.replace(/,"auth":"[0-9a-f]{64}"/g, ''));
    await h.runtime.close();
    skipReplayCheck(h);
    const resumed = makeEngine({
      mode: 'auto',
      resume: h.runtime.session.location,
      dirs: { home: h.home, cwd: h.cwd },
      responses: [],
    });
    expect(resumed.runtime.session.state.mode).toBe('auto');
    expect(Session.open(resumed.runtime.session.location).modeRestored).toBe(true);
  });

  it('a fork keeps the authentic approvals, their paths moved into the copy', async () => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    await runPrompt(h, 'hello');
    const scratchWrite = `Write(${join(h.runtime.session.scratchDir, 'notes')}/**)`;
    h.runtime.session.commit({ type: 'session_approval', pattern: scratchWrite });
    appendFileSync(h.runtime.session.journalPath, line({ type: 'session_approval', pattern: 'Bash(curl *)' }));
    const fork = forkSession(h.runtime, { home: h.home });
    const copy = Session.open({ sessionId: fork.sessionId, sessionDir: fork.sessionDir, workDir: h.cwd, home: h.home });
    expect(copy.state.sessionApprovals).toEqual([scratchWrite.replace(h.runtime.session.dir, fork.sessionDir)]);
    skipReplayCheck(h);
  });
});
