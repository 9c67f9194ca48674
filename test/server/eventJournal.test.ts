// The event buffer of a session (src/server/eventJournal.ts) and the ban list (guard.ts): catch-up within the buffer,
// resync_required past it or from another server run, and the 10-in-60-s ban that lifts after 60 s.
import { describe, expect, it } from 'vitest';
import { EventJournal } from '../../src/server/eventJournal';
import { BanList } from '../../src/server/guard';
import { ApiError } from '../../src/server/envelope';

describe('EventJournal', () => {
  it('replays what came after a cursor while the buffer holds it, and asks for a resync past it', () => {
    const j = new EventJournal('S', 'epoch-1', 1000);
    for (let i = 0; i < 1500; i++) j.emit('message', { i });
    expect(j.lastSeq).toBe(1500);
    const caught = j.since(1400);
    expect('events' in caught && caught.events.map((e) => e.seq)).toEqual(
      Array.from({ length: 100 }, (_, i) => 1401 + i),
    );
    expect(j.since(499)).toEqual({ resync: expect.stringContaining('no longer buffered (the oldest kept is 501)') });
    const edge = j.since(500);
    expect('events' in edge && edge.events.length).toBe(1000);
    expect(j.since(1500)).toEqual({ events: [] });
    expect(j.since(1501)).toEqual({ resync: expect.stringContaining('not a sequence number') });
    expect(j.since(-1)).toEqual({ resync: expect.any(String) });
    expect(j.since(Number.NaN)).toEqual({ resync: expect.any(String) });
    expect(j.since(1400, 'epoch-0')).toEqual({ resync: expect.stringContaining('another server run') });
  });

  it('tells listeners each event once, in order', () => {
    const j = new EventJournal('S', 'e');
    const seen: number[] = [];
    const off = j.listen((e) => seen.push(e.seq));
    j.emit('a', null);
    j.emit('b', null);
    off();
    j.emit('c', null);
    expect(seen).toEqual([1, 2]);
  });
});

describe('BanList', () => {
  it('bans an address at the 10th failure inside 60 s, for 60 s, and only that address', () => {
    let now = 0;
    const bans = new BanList(() => now);
    for (let i = 0; i < 9; i++) {
      bans.fail('10.0.0.1');
      now += 7_000;
    }
    // The first failure is now more than 60 s old: nine in the window, no ban yet.
    bans.fail('10.0.0.1');
    expect(() => bans.check('10.0.0.1')).not.toThrow();
    bans.fail('10.0.0.1');
    let err: unknown;
    try {
      bans.check('10.0.0.1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 42901, httpStatus: 429 });
    expect(() => bans.check('10.0.0.2')).not.toThrow();
    now += 59_999;
    expect(() => bans.check('10.0.0.1')).toThrow();
    now += 1;
    expect(() => bans.check('10.0.0.1')).not.toThrow();
  });
});
