import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriter, readJournal } from '../../src/store/journal';

const isRec = (v: unknown): v is { n: number } =>
  typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number';

describe('journal', () => {
  it('appends one JSON line per record and reads them back in order', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'jr-')), 'a', 'wire.jsonl');
    const w = new JournalWriter<{ n: number }>(path);
    for (let n = 0; n < 5; n++) w.append({ n });
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(6);
    expect(readJournal(path, isRec)).toEqual({ records: [0, 1, 2, 3, 4].map((n) => ({ n })), warnings: [] });
  });

  it('skips a torn last line with a warning and keeps everything before it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'jr-')), 'wire.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}\n{"n":3, "tex');
    const { records, warnings } = readJournal(path, isRec);
    expect(records).toEqual([{ n: 1 }, { n: 2 }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/last record was cut off/);
  });

  it('appending after a torn line never merges with it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'jr-')), 'wire.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2, "x');
    new JournalWriter<{ n: number }>(path).append({ n: 3 });
    const { records, warnings } = readJournal(path, isRec);
    expect(records).toEqual([{ n: 1 }, { n: 3 }]);
    expect(warnings[0]).toMatch(/unreadable record skipped/);
  });

  it('skips records of unknown shape with a warning', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'jr-')), 'wire.jsonl');
    writeFileSync(path, '{"n":1}\n');
    appendFileSync(path, '{"other":true}\n');
    const { records, warnings } = readJournal(path, isRec);
    expect(records).toEqual([{ n: 1 }]);
    expect(warnings[0]).toMatch(/unknown type or version/);
  });

  it('reads a missing journal as empty', () => {
    expect(readJournal('/nonexistent/wire.jsonl', isRec)).toEqual({ records: [], warnings: [] });
  });
});
