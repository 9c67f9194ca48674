import { describe, expect, it } from 'vitest';
import { QuestionQueue } from '../../../src/engine/runtime/questionQueue';

describe('the queue of questions the engine asks (shared by every front end)', () => {
  it('shows the oldest first; a background question waits while the agent works', async () => {
    const changes: number[] = [];
    const q = new QuestionQueue<string>((queue) => changes.push(queue.size));
    const finishers = new Map<string, (v: string) => void>();
    const ask = (name: string, background = false) =>
      q.ask<string>(new AbortController().signal, {
        label: `waiting for ${name}`,
        background,
        view: (finish) => (finishers.set(name, finish), name),
        onAbort: () => 'withdrawn',
      });
    const bg = ask('question', true);
    const first = ask('approval');
    const second = ask('plan');
    expect(q.current(true)).toBe('approval');
    expect(q.current(false)).toBe('question');
    expect(q.blockingLabel()).toBe('waiting for approval');
    finishers.get('approval')!('yes');
    expect(await first).toBe('yes');
    expect(q.current(true)).toBe('plan');
    finishers.get('plan')!('ok');
    finishers.get('question')!('blue');
    expect([await second, await bg]).toEqual(['ok', 'blue']);
    expect(q.current(false)).toBeUndefined();
    expect(changes).toEqual([1, 2, 3, 2, 1, 0]);
  });

  it("the turn's abort withdraws a question with onAbort's value or error; answering twice changes nothing", async () => {
    const q = new QuestionQueue<string>();
    const abort = new AbortController();
    let finish: ((v: string) => void) | undefined;
    const approval = q.ask<string>(abort.signal, {
      label: 'a',
      view: (f) => ((finish = f), 'panel'),
      onAbort: () => 'rejected',
    });
    const review = q.ask<string>(abort.signal, {
      label: 'b',
      view: () => 'panel2',
      onAbort: () => new Error('interrupted'),
    });
    abort.abort();
    expect(await approval).toBe('rejected');
    await expect(review).rejects.toThrow('interrupted');
    finish!('late');
    expect(q.size).toBe(0);
    expect(await q.ask(abort.signal, { label: 'c', view: () => 'x', onAbort: () => 'already aborted' })).toBe(
      'already aborted',
    );
  });

  it('cancelAll withdraws everything (front end shutting down)', async () => {
    const q = new QuestionQueue<string>();
    const a = q.ask<string>(new AbortController().signal, { label: 'a', view: () => 'a', onAbort: () => 'gone' });
    const b = q.ask<string>(new AbortController().signal, { label: 'b', view: () => 'b', onAbort: () => 'gone' });
    q.cancelAll();
    expect(await Promise.all([a, b])).toEqual(['gone', 'gone']);
    expect(q.size).toBe(0);
  });
});
