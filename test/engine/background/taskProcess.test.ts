// Which process a task record may get signalled (docs/sessions.md, "Background tasks on resume"): only the very
// process this session started — authenticated record, same pid, same start time, still leading its own group — and
// never a group of 0, 1, a negative number or Jarvis's own. Rows: {name, record, verdict}; processes are real.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTaskProcess,
  recordTaskProcess,
  type TaskProcessRecord,
} from '../../../src/engine/background/taskProcess';
import { ownProcessGroup, processState, unsignallableGroup } from '../../../src/platform/processIdentity';
import { signalGroup } from '../../../src/platform/processes';
import { RecordSigner } from '../../../src/store/recordKey';

const signer = new RecordSigner(randomBytes(32));
const SESSION = '01SESSION';
let leader: ChildProcess;
let member: number;

beforeAll(async () => {
  // A group of its own, as Jarvis starts a task: a shell leading it, a sleep inside it.
  leader = spawn('bash', ['-c', 'sleep 600 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  member = await new Promise<number>((resolve) =>
    leader.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString()))),
  );
});

afterAll(() => {
  signalGroup(leader.pid!, 'SIGKILL');
});

const recorded = (pid: number, taskId = 'bjob0001', sessionId = SESSION): TaskProcessRecord =>
  recordTaskProcess(signer, sessionId, taskId, pid)!;

interface Row {
  name: string;
  record: () => { id: string; pid?: unknown; process?: unknown };
  verdict: { ours: boolean; gone?: boolean; reason?: RegExp };
}

const rows: Row[] = [
  {
    name: 'the process this session started',
    record: () => ({ id: 'bjob0001', pid: leader.pid, process: recorded(leader.pid!) }),
    verdict: { ours: true },
  },
  {
    name: 'group 0',
    record: () => ({ id: 'bjob0001', pid: 0 }),
    verdict: { ours: false, gone: false, reason: /0 is not a process group Jarvis signals/ },
  },
  {
    name: 'group 1',
    record: () => ({ id: 'bjob0001', pid: 1, process: recorded(1) }),
    verdict: { ours: false, reason: /1 is not a process group/ },
  },
  {
    name: 'a negative pid',
    record: () => ({ id: 'bjob0001', pid: -1 }),
    verdict: { ours: false, reason: /-1 is not a process group/ },
  },
  {
    name: 'a pid that is not a number',
    record: () => ({ id: 'bjob0001', pid: '1234' }),
    verdict: { ours: false, reason: /not a process id/ },
  },
  {
    name: "Jarvis's own pid",
    record: () => ({ id: 'bjob0001', pid: process.pid, process: recorded(process.pid) }),
    verdict: { ours: false, reason: /own process group/ },
  },
  {
    name: "Jarvis's own process group",
    record: () => ({ id: 'bjob0001', pid: ownProcessGroup(), process: recorded(ownProcessGroup()!) }),
    verdict: { ours: false, reason: /own process group/ },
  },
  {
    name: 'a record without its process identity (written by an older version, or by hand)',
    record: () => ({ id: 'bjob0001', pid: leader.pid }),
    verdict: { ours: false, gone: false, reason: /not authenticated/ },
  },
  {
    name: "another task's authentic identity",
    record: () => ({ id: 'bjob0002', pid: leader.pid, process: recorded(leader.pid!) }),
    verdict: { ours: false, reason: /not authenticated/ },
  },
  {
    name: "another session's authentic identity",
    record: () => ({ id: 'bjob0001', pid: leader.pid, process: recorded(leader.pid!, 'bjob0001', 'OTHER') }),
    verdict: { ours: false, reason: /not authenticated/ },
  },
  {
    name: 'the right tag on a changed start time',
    record: () => ({ id: 'bjob0001', pid: leader.pid, process: { ...recorded(leader.pid!), start: '1' } }),
    verdict: { ours: false, reason: /not authenticated/ },
  },
  {
    name: 'an authentic record whose pid now names a later process (reused)',
    record: () => {
      // What the record would say had the process started at another time: signed, but not this process's start.
      const now = processState(leader.pid!)!;
      const start = String(Number(now.start) - 1);
      const auth = signer.sign(['task', SESSION, 'bjob0001', leader.pid, start, now.boot]);
      return { id: 'bjob0001', pid: leader.pid, process: { start, boot: now.boot, auth } };
    },
    verdict: { ours: false, gone: true, reason: /has ended/ },
  },
  {
    name: 'a member that does not lead its group',
    record: () => ({ id: 'bjob0001', pid: member, process: recorded(member) }),
    verdict: { ours: false, gone: false, reason: /left the process group/ },
  },
  {
    name: 'a pid with no process',
    record: () => ({ id: 'bjob0001', pid: 4_194_303 }),
    verdict: { ours: false, gone: true },
  },
];

describe('the process a task record names', () => {
  it.each(rows.map((r): [string, Row] => [r.name, r]))('%s', (_name, row) => {
    const verdict = checkTaskProcess(row.record(), signer, SESSION);
    expect(verdict.ours).toBe(row.verdict.ours);
    if (!verdict.ours) {
      if (row.verdict.gone !== undefined) expect(verdict.gone).toBe(row.verdict.gone);
      if (row.verdict.reason) expect(verdict.reason).toMatch(row.verdict.reason);
    }
  });

  it('without the key nothing is ours', () => {
    expect(
      checkTaskProcess({ id: 'bjob0001', pid: leader.pid, process: recorded(leader.pid!) }, undefined, SESSION),
    ).toMatchObject({ ours: false });
  });

  it('signalGroup itself refuses 0, 1, negative numbers and our own group, whoever asks', () => {
    for (const pgid of [0, 1, -1, -42, 1.5, Number.NaN, process.pid, ownProcessGroup()!]) {
      expect(unsignallableGroup(pgid)).toBeDefined();
      expect(() => signalGroup(pgid, 0)).toThrow(/refusing to signal process group/);
    }
    expect(unsignallableGroup(leader.pid!)).toBeUndefined();
  });
});
