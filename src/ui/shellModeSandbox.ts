// How a `!` command of the TUI runs (docs/sandbox.md "Shell mode"): through the session's trust boundary like a Bash
// call — the same sandbox, built from the session's one policy, and the same undoing of what it leaves that would run
// later — with leaving the sandbox decided by the user's own `[sandbox] shell_mode`, never by the model. A failure at
// the boundary is explained to the user the way Bash results explain it to the model (tools/boundary/sandboxFailure.ts).
import type { Runtime } from '../engine/runtime/runtime';
import type { SandboxSpawn } from '../platform/processes';
import { BOUNDARY_SERVICE } from '../tools/boundary/commandBoundary';
import { HIDDEN_FILE_TEXT } from '../tools/boundary/hiddenFiles';

export type ShellModePlan =
  | {
      kind: 'run';
      /** Absent: unconfined (sandbox off, unavailable, or `shell_mode = "unsandboxed"`). */
      sandbox?: SandboxSpawn;
      /** Lines to add after the command's output: a boundary it hit, a hidden file's note for the user. */
      notes(output: string, exitCode: number | null): string[];
      /** Once the command ended, or will not run: what the boundary undid after it, as lines to add. */
      settle(): string[];
    }
  | { kind: 'refused'; message: string };

const NO_NOTES = (): string[] => [];
const UNCONFINED = { kind: 'run' as const, notes: NO_NOTES, settle: NO_NOTES };

/** The first words of the note the sandbox shows in place of a hidden file (hiddenFiles.ts HIDDEN_FILE_TEXT). */
const HIDDEN_FILE_MARK = HIDDEN_FILE_TEXT.split(':')[0];
/** That note speaks to the model; the user who typed the `!` command reads what they can do themselves. */
const HIDDEN_FILE_USER_NOTE =
  "That is the sandbox's note in place of a hidden file: `!` commands run in the command sandbox, where secret " +
  'files and home dotfiles are not readable. To read a home entry, add it to [sandbox] readable_home_paths; to ' +
  'run `!` commands outside the sandbox, set [sandbox] shell_mode = "unsandboxed" in config.toml (docs/sandbox.md).';

export async function planShellModeCommand(rt: Runtime, command: string, cwd: string): Promise<ShellModePlan> {
  const boundary = rt.services.find(BOUNDARY_SERVICE);
  if (!boundary) return UNCONFINED;
  const unsandboxed = boundary.settings.shellMode === 'unsandboxed';
  const run = await boundary.prepare({ command, cwd, unsandboxed });
  if (run.kind === 'refused') return run;
  if (run.kind === 'unsandboxed') return UNCONFINED;
  return {
    kind: 'run',
    sandbox: run.spawn,
    notes: (output, exitCode) => {
      const hit = run.explain(output, exitCode, 'user');
      const hidden = output.includes(HIDDEN_FILE_MARK) ? HIDDEN_FILE_USER_NOTE : undefined;
      return [...run.notes, hidden, hit].filter((n): n is string => !!n);
    },
    settle: () => run.settle(),
  };
}
