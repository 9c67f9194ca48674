// Attack rows: the session folder written from inside the sandbox (issue 43, "The session folder is writable inside
// the sandbox, and Jarvis trusts what it finds there"): the session-folder corpus's commands
// (test/helpers/sessionStateAttacks.ts) made on the running session's own folder, whose path a command learns from
// its results. Each must plant nothing there; what Jarvis makes of a plant made outside the sandbox (resume, rewind,
// ACP session/load) is that corpus's own test (test/cli/sessionStateAttacks.test.ts,
// test/acp/acpSessionStateAttacks.test.ts). docs/trust-boundary.md "Attack corpus".
import { join } from 'node:path';
import { SESSION_STATE_ATTACKS, type World } from '../../../helpers/sessionStateAttacks';
import type { AttackCase, AttackFixture } from '../corpusKit';

/** A process id no process has: the task-record rows name it (the corpus checks the plant, not a signal). */
const NO_PROCESS = 4_194_303;

/** The session-folder corpus's world, as a row of this corpus sees it. */
function worldOf(fx: AttackFixture): World {
  if (!fx.session) throw new Error('the session folder of the row is not known yet');
  return {
    home: fx.home,
    cwd: fx.ws,
    session: fx.session,
    out: fx.outside,
    canary: NO_PROCESS,
    bashrc: '',
    secret: join(fx.outside, 'notes.txt'),
  };
}

export const SESSION_ROWS: AttackCase[] = SESSION_STATE_ATTACKS.map((row): AttackCase => ({
  name: `session folder: ${row.name}`,
  bullet: 'session',
  ...(row.unprivilegedOnly ? { only: 'unprivileged' as const } : {}),
  attack: (fx) => row.command(fx.session!, worldOf(fx)),
  check: (fx) => (row.planted(fx.session!, worldOf(fx)) ? `planted in the session folder ${fx.session}` : undefined),
}));
