// The trust boundary's attack corpus (docs/trust-boundary.md "Attack corpus"; issue 43): one table of attacks the way
// an attacker writes them — a prompt-injected model's Bash command, or a cloned repository's files — each with what
// the user (or their editor, or Jarvis) does next outside any sandbox, and how to tell that it worked. The rows live
// in attackRows/ by the bullet; corpusWorld.ts lays every row out in one workspace for one user, proves each
// works in plain bash, and test/helpers/corpusCli.ts sends them all through the built CLI (print mode, ACP in manual
// mode) as root and as an unprivileged user. Add a row to add a case.
import { CAPS_ROWS, SOCKET_ROWS } from './attackRows/capsSocketRows';
import { CWD_ROWS } from './attackRows/cwdRows';
import { GIT_ROWS } from './attackRows/gitRows';
import { APPROVAL_ROWS, MCP_ROWS } from './attackRows/launchRows';
import { LSP_ROWS } from './attackRows/lspRows';
import { RUNS_LATER_ROWS } from './attackRows/runsLaterRows';
import { SECRET_ROWS } from './attackRows/secretRows';
import { SESSION_ROWS } from './attackRows/sessionRows';
import type { AttackCase } from './corpusKit';

export * from './corpusKit';

export const ATTACKS: AttackCase[] = [
  ...CAPS_ROWS,
  ...SESSION_ROWS,
  ...CWD_ROWS,
  ...GIT_ROWS,
  ...RUNS_LATER_ROWS,
  ...LSP_ROWS,
  ...MCP_ROWS,
  ...APPROVAL_ROWS,
  ...SOCKET_ROWS,
  ...SECRET_ROWS,
];
