// The last-resort handler: terminal restored, crash note in the session's crash.log (else the global
// log), a message naming it, exit 1.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handleEscapedError, onLastResort, TERMINAL_RESET, type LastResortIo } from '../../src/cli/lastResort';
import { LEAVE_ALTERNATE_SCREEN, setAlternateScreenActive } from '../../src/platform/terminalModes';
import { GLOBAL_LOG_NAME, noteActiveSessionDir } from '../../src/store/crashLog';

function fakeIo() {
  const out: string[] = [];
  const err: string[] = [];
  const raw: boolean[] = [];
  const exits: number[] = [];
  const io: LastResortIo = {
    stdout: { isTTY: true, write: (t: string) => out.push(t) },
    stdin: { isTTY: true, setRawMode: (r: boolean) => raw.push(r) },
    stderr: { write: (t: string) => err.push(t) },
    exit: (code) => exits.push(code),
  };
  return { io, out, err, raw, exits };
}

describe('last-resort handler', () => {
  it('restores the terminal, writes a crash note to the session folder and exits 1', () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-home-'));
    const sessionDir = mkdtempSync(join(tmpdir(), 'jarvis-session-'));
    noteActiveSessionDir(sessionDir);
    const f = fakeIo();
    handleEscapedError(home, 'unhandled promise rejection', new Error('boom in a floating promise'), f.io);
    expect(f.raw).toEqual([false]);
    expect(f.out.join('')).toContain(TERMINAL_RESET);
    const note = readFileSync(join(sessionDir, 'crash.log'), 'utf8');
    expect(note).toMatch(/unhandled promise rejection \(pid \d+/);
    expect(note).toContain('Error: boom in a floating promise');
    expect(note).toMatch(/at .*lastResort\.test\.ts/); // the stack
    expect(f.err.join('')).toContain(
      `boom in a floating promise\nA crash note with the details is in ${join(sessionDir, 'crash.log')}.`,
    );
    expect(f.exits).toEqual([1]);
  });

  it('falls back to the global log when the session folder is gone, and leaves a non-terminal alone', () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-home-'));
    const sessionDir = mkdtempSync(join(tmpdir(), 'jarvis-session-'));
    noteActiveSessionDir(sessionDir);
    rmSync(sessionDir, { recursive: true });
    const f = fakeIo();
    f.io.stdout.isTTY = false;
    f.io.stdin.isTTY = false;
    handleEscapedError(home, 'uncaught exception', 'a thrown string', f.io);
    expect(existsSync(sessionDir)).toBe(false);
    expect(readFileSync(join(home, 'logs', GLOBAL_LOG_NAME), 'utf8')).toContain('"a thrown string"');
    expect(f.out).toEqual([]);
    expect(f.raw).toEqual([]);
  });

  it("leaves the full-screen mode's alternate screen before it prints, so the message stays visible", () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-home-'));
    const f = fakeIo();
    setAlternateScreenActive(true);
    handleEscapedError(home, 'uncaught exception', new Error('boom in full screen'), f.io);
    expect(f.out.join('').startsWith(LEAVE_ALTERNATE_SCREEN + TERMINAL_RESET)).toBe(true);
    expect(f.err.join('')).toContain('boom in full screen');
    const again = fakeIo();
    handleEscapedError(home, 'uncaught exception', new Error('second'), again.io);
    expect(again.out.join('')).not.toContain(LEAVE_ALTERNATE_SCREEN);
  });

  it('lets front ends say their last words after the message and before the exit, even when one of them throws', () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-home-'));
    const f = fakeIo();
    const heard: string[] = [];
    const takeBack = onLastResort(() => {
      throw new Error('a broken front end');
    });
    const takeBackToo = onLastResort((message) => heard.push(`${f.err.length}:${f.exits.length}:${message}`));
    handleEscapedError(home, 'uncaught exception', new Error('the cause'), f.io);
    takeBack();
    takeBackToo();
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatch(/^1:0:jarvis: an unexpected error stopped the program \(uncaught exception\): the cause/);
    expect(f.exits).toEqual([1]);
    const after = fakeIo();
    handleEscapedError(home, 'uncaught exception', new Error('later'), after.io);
    expect(heard).toHaveLength(1);
  });
});
