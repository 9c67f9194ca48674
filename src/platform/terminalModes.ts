// Terminal modes a front end turned on that must be undone however the process ends: the UI's
// full-screen mode uses the terminal's alternate screen, and a crash message printed before leaving
// it would vanish with it (src/cli/lastResort.ts reads this before it prints).
export const ENTER_ALTERNATE_SCREEN = '\x1b[?1049h';
export const LEAVE_ALTERNATE_SCREEN = '\x1b[?1049l';

let alternateScreen = false;

export function setAlternateScreenActive(on: boolean): void {
  alternateScreen = on;
}

export function alternateScreenActive(): boolean {
  return alternateScreen;
}

const ENDING_SIGNALS = ['SIGHUP', 'SIGTERM'] as const;

/**
 * While the alternate screen is on, the process ending — normally, or by SIGTERM/SIGHUP, which would
 * otherwise end it without a word — first calls `leave`. Returns the function that removes the guard.
 */
export function guardAlternateScreen(leave: () => void): () => void {
  const onExit = () => leave();
  const onSignal = (signal: NodeJS.Signals) => {
    leave();
    remove();
    process.kill(process.pid, signal); // the default action, now that the screen is back
  };
  const remove = () => {
    process.off('exit', onExit);
    for (const s of ENDING_SIGNALS) process.off(s, onSignal);
  };
  process.on('exit', onExit);
  for (const s of ENDING_SIGNALS) process.once(s, onSignal);
  return remove;
}
