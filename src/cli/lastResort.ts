// The last resort: an exception or a rejected promise that escaped every handler. The terminal is put
// back the way it was (raw mode off, cursor shown, the UI's terminal modes undone, the normal screen back), a crash note goes
// to the session's crash.log (else the global log), and the process ends with exit code 1 and a
// message that says where the note is. Every known failure (provider errors, a journal that cannot be
// written, a tool that throws) is handled long before this.
import { alternateScreenActive, LEAVE_ALTERNATE_SCREEN, setAlternateScreenActive } from '../platform/terminalModes';
import { writeCrashNote } from '../store/crashLog';

/** Undoes the UI's terminal modes: synchronized output, attributes, bracketed paste, kitty keys, modifyOtherKeys; shows the cursor. */
export const TERMINAL_RESET = '\x1b[?2026l\x1b[0m\x1b[?2004l\x1b[<u\x1b[>4;0m\x1b[?25h';

export interface LastResortIo {
  stdout: { isTTY?: boolean; write(text: string): unknown };
  stdin: { isTTY?: boolean; setRawMode?(raw: boolean): unknown };
  stderr: { write(text: string): unknown };
  exit(code: number): void;
}

export function restoreTerminal(io: Pick<LastResortIo, 'stdout' | 'stdin'>): void {
  try {
    if (io.stdin.isTTY) io.stdin.setRawMode?.(false);
  } catch {
    // stdin already closed
  }
  // Full-screen mode: back to the normal screen first, or the message below would vanish with the alternate one.
  const leave = alternateScreenActive() ? LEAVE_ALTERNATE_SCREEN : '';
  setAlternateScreenActive(false);
  if (io.stdout.isTTY) io.stdout.write(`${leave}${TERMINAL_RESET}\n`);
}

/** Front ends' last words before the exit: print mode's stream-json writes its `result` (docs/print-mode.md). */
const lastWords = new Set<(message: string) => void>();

/**
 * `say` is called with the error's message when an unexpected error ends the program, after the message on
 * stderr and before the exit. Returns the function that takes it back.
 */
export function onLastResort(say: (message: string) => void): () => void {
  lastWords.add(say);
  return () => lastWords.delete(say);
}

/** What happens to an error that reached the top: restore, note, explain, let front ends finish, exit 1. */
export function handleEscapedError(home: string, kind: string, error: unknown, io: LastResortIo): void {
  restoreTerminal(io);
  const file = writeCrashNote(home, kind, error);
  const message = error instanceof Error ? error.message : String(error);
  const text = `jarvis: an unexpected error stopped the program (${kind}): ${message}`;
  io.stderr.write(`${text}\n${file ? `A crash note with the details is in ${file}.\n` : ''}`);
  for (const say of lastWords) {
    try {
      say(`${text}${file ? ` (crash note: ${file})` : ''}`);
    } catch {
      // the exit below must happen whatever a front end's last words do
    }
  }
  io.exit(1);
}

let installed = false;

/** Installs the process-wide handlers once (print mode and the UI). */
export function installLastResort(home: string): void {
  if (installed) return;
  installed = true;
  const io: LastResortIo = {
    stdout: process.stdout,
    stdin: process.stdin,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
  };
  process.on('uncaughtException', (error) => handleEscapedError(home, 'uncaught exception', error, io));
  process.on('unhandledRejection', (reason) => handleEscapedError(home, 'unhandled promise rejection', reason, io));
}
