import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriter, readJournal } from '../../src/store/journal';

const isRec = (v: unknown): v is { n: number } =>
  typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number';

describe('journal', () => {
  it('appends one JSON line per record and reads them back in order', () => {
    const root = mkdtempSync(join(tmpdir(), 'jr-'));
    const path = join(root, 'a', 'wire.jsonl');
    const w = new JournalWriter<{ n: number }>(path, root);
    for (let n = 0; n < 5; n++) w.append({ n });
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(6);
    expect(readJournal(path, root, isRec)).toEqual({ records: [0, 1, 2, 3, 4].map((n) => ({ n })), warnings: [] });
  });

  it('skips a torn last line with a warning and keeps everything before it', () => {
    const root = mkdtempSync(join(tmpdir(), 'jr-'));
    const path = join(root, 'wire.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}\n{"n":3, "tex');
    const { records, warnings } = readJournal(path, root, isRec);
    expect(records).toEqual([{ n: 1 }, { n: 2 }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/last record was cut off/);
  });

  it('appending after a torn line never merges with it', () => {
    const root = mkdtempSync(join(tmpdir(), 'jr-'));
    const path = join(root, 'wire.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2, "x');
    new JournalWriter<{ n: number }>(path, root).append({ n: 3 });
    const { records, warnings } = readJournal(path, root, isRec);
    expect(records).toEqual([{ n: 1 }, { n: 3 }]);
    expect(warnings[0]).toMatch(/unreadable record skipped/);
  });

  it('skips records of unknown shape with a warning', () => {
    const root = mkdtempSync(join(tmpdir(), 'jr-'));
    const path = join(root, 'wire.jsonl');
    writeFileSync(path, '{"n":1}\n');
    appendFileSync(path, '{"other":true}\n');
    const { records, warnings } = readJournal(path, root, isRec);
    expect(records).toEqual([{ n: 1 }]);
    expect(warnings[0]).toMatch(/unknown type or version/);
  });

  it('reads a missing journal as empty', () => {
    expect(readJournal('/nonexistent/wire.jsonl', '/nonexistent', isRec)).toEqual({ records: [], warnings: [] });
  });

  it('never appends through a link standing where the journal (or a folder on its way) should be', () => {
    const root = mkdtempSync(join(tmpdir(), 'jr-'));
    const victim = join(mkdtempSync(join(tmpdir(), 'jr-victim-')), '.bashrc');
    writeFileSync(victim, 'export PS1=ok\n');
    mkdirSync(join(root, 'agents'));
    symlinkSync(victim, join(root, 'agents', 'wire.jsonl'));
    const writer = new JournalWriter<{ n: number }>(join(root, 'agents', 'wire.jsonl'), root);
    expect(() => writer.append({ n: 1 })).toThrow(/agents\/wire\.jsonl is a symbolic link/);
    expect(() => readJournal(join(root, 'agents', 'wire.jsonl'), root, isRec)).toThrow(/is a symbolic link/);
    symlinkSync(dirname(victim), join(root, 'linked'));
    const through = new JournalWriter<{ n: number }>(join(root, 'linked', '.bashrc'), root);
    expect(() => through.append({ n: 1 })).toThrow(/linked is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('export PS1=ok\n');
  });

  it('refuses a FIFO where the journal should be instead of blocking on it', () => {
    const root = mkdtempSync(join(tmpdir(), 'jr-'));
    expect(spawnSync('mkfifo', [join(root, 'wire.jsonl')]).status).toBe(0);
    const writer = new JournalWriter<{ n: number }>(join(root, 'wire.jsonl'), root);
    expect(() => writer.append({ n: 1 })).toThrow(/special file/);
  });
});
