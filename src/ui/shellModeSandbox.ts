// Whether a `!` command of the TUI runs inside the command sandbox (docs/sandbox.md "Shell mode"): the same seam and
// boundaries as a Bash call, decided by the user's own `[sandbox] shell_mode`, never by the model. A failure at
// the boundary is explained to the user the way Bash results explain it to the model (tools/shell/sandboxFailure.ts).
import type { Runtime } from '../engine/runtime/runtime';
import type { SandboxSpawn } from '../platform/processes';
import { HIDDEN_FILE_TEXT, SANDBOX_SERVICE } from '../tools/shell/commandSandbox';
import { explainSandboxFailure } from '../tools/shell/sandboxFailure';

export type ShellModePlan =
  | {
      kind: 'run';
      /** Absent: unconfined (sandbox off, unavailable, or `shell_mode = "unsandboxed"`). */
      sandbox?: SandboxSpawn;
      /** Lines to add after the command's output: a boundary it hit, a secret-file scan that stopped early. */
      notes(output: string, exitCode: number | null): string[];
    }
  | { kind: 'refused'; message: string };

const NO_NOTES = (): string[] => [];

/** The first words of the note the sandbox shows in place of a hidden file (commandSandbox.ts HIDDEN_FILE_TEXT). */
const HIDDEN_FILE_MARK = HIDDEN_FILE_TEXT.split(':')[0];
/** That note speaks to the model; the user who typed the `!` command reads what they can do themselves. */
const HIDDEN_FILE_USER_NOTE =
  "That is the sandbox's note in place of a hidden file: `!` commands run in the command sandbox, where secret " +
  'files and home dotfiles are not readable. To read a home entry, add it to [sandbox] readable_home_paths; to ' +
  'run `!` commands outside the sandbox, set [sandbox] shell_mode = "unsandboxed" in config.toml (docs/sandbox.md).';

export function planShellModeCommand(rt: Runtime, command: string, cwd: string): ShellModePlan {
  const sandbox = rt.services.find(SANDBOX_SERVICE);
  if (!sandbox) return { kind: 'run', notes: NO_NOTES };
  let plan;
  try {
    plan = sandbox.plan(command, cwd, rt.session.scratchDir, sandbox.settings.shellMode === 'unsandboxed');
  } catch (e) {
    // The sandbox could not be built for this folder (its hidden-file note not writable, say): never run unconfined.
    const why = e instanceof Error ? e.message : String(e);
    return { kind: 'refused', message: `Cannot run the command: the command sandbox could not be set up: ${why}` };
  }
  if (plan.kind === 'refused') return plan;
  if (plan.kind === 'unsandboxed') return { kind: 'run', notes: NO_NOTES };
  return {
    kind: 'run',
    sandbox: plan.spawn,
    notes: (output, exitCode) => {
      const hit = explainSandboxFailure(output, exitCode, plan.boundary, 'user');
      const hidden = output.includes(HIDDEN_FILE_MARK) ? HIDDEN_FILE_USER_NOTE : undefined;
      return [plan.note, hidden, hit].filter((n): n is string => !!n);
    },
  };
}
