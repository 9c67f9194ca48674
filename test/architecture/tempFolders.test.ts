// Test temp folders are removed after each test (test/helpers/tempRoot.ts).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCliDirs } from '../helpers/cli';
import { makeEngine, verifyEnginesAfterEach } from '../helpers/engineHarness';

verifyEnginesAfterEach();
const made: string[] = [];

// The second case checks what the first one left behind, so the order is kept when the suite runs shuffled.
describe('temporary folders', { shuffle: false }, () => {
  it('a test makes folders the usual ways', () => {
    const own = mkdtempSync(join(tmpdir(), 'jarvis-own-'));
    writeFileSync(join(own, 'f.txt'), 'x');
    const cli = makeCliDirs();
    const engine = makeEngine({ responses: [] });
    made.push(own, cli.home, engine.home, engine.runtime.session.dir);
    for (const dir of made) expect(existsSync(dir)).toBe(true);
  });

  it('they are gone once that test has ended', () => {
    expect(made).toHaveLength(4);
    for (const dir of made) expect(existsSync(dir)).toBe(false);
  });
});
