// A front end's event handler that throws must not break the turn, and must not vanish either: the
// failure goes to the session's crash.log once (docs/testing.md, "no silent catch-all").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import { noteSurvivedFailure } from '../../../src/store/crashLog';

verifyEnginesAfterEach();

describe('failures the engine survives are logged', () => {
  it('an event handler that throws: the turn completes and crash.log names the event and the error', async () => {
    const h = makeEngine({ responses: [{ text: 'first answer' }, { text: 'second answer' }] });
    const seen = h.events;
    seen.push = () => {
      throw new TypeError('renderer exploded');
    };
    await runPrompt(h, 'hello');
    await runPrompt(h, 'again');
    const log = join(h.runtime.session.dir, 'crash.log');
    expect(existsSync(log)).toBe(true);
    const text = readFileSync(log, 'utf8');
    expect(text).toMatch(/a front end's event handler threw on a \w+ event \(survived; the session went on\)/);
    expect(text).toContain('TypeError: renderer exploded');
    // Once per kind and message, however many events failed.
    const kinds = text.match(/^\S+ a front end's event handler threw on a \w+ event/gm) ?? [];
    expect(new Set(kinds.map((k) => k.split(' ').slice(1).join(' '))).size).toBe(kinds.length);
    expect(h.runtime.session.state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('noteSurvivedFailure writes each kind and message once', () => {
    const home = join(process.env.TMPDIR!, 'home');
    const file = noteSurvivedFailure('a probe failed', new Error('probe error'), home);
    expect(file).toBeDefined();
    expect(noteSurvivedFailure('a probe failed', new Error('probe error'), home)).toBeUndefined();
    expect(noteSurvivedFailure('a probe failed', new Error('another error'), home)).toBe(file);
    expect(readFileSync(file!, 'utf8').match(/a probe failed/g)).toHaveLength(2);
  });
});
