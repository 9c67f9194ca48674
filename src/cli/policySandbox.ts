// What `jarvis policy test` says about the command sandbox for a Bash call that would run: whether it runs
// sandboxed here and what the sandbox lets it touch, and what the rules decide for the same command asked to run
// outside it (`dangerously_unsandboxed`). docs/approvals.md "Testing rules", docs/sandbox.md.
import type { PolicyDecision } from '../engine/policy/approvals';
import { probeBwrapInBackground } from '../platform/sandbox/bwrapSandbox';
import type { SandboxSettings } from '../tools/boundary/sandboxSettings';

export interface SandboxNote {
  state: 'sandboxed' | 'disabled' | 'unavailable' | 'refused';
  /** One sentence for the `sandbox` row. */
  text: string;
  /** The decision for the same call with `dangerously_unsandboxed: true`; only when it would run sandboxed. */
  unsandboxed?: PolicyDecision;
}

function networkWords(s: SandboxSettings): string {
  if (s.network === 'on') return 'network on ([sandbox] network = "on")';
  if (s.network === 'allowlist')
    return `network only through the proxy to ${s.allowedDomains.length ? s.allowedDomains.join(', ') : 'no domain'}`;
  return 'network off';
}

/**
 * The sandbox as it would confine this call. `decideOutside` is the approval chain asked again with the call outside
 * the sandbox; it is only consulted when the sandbox runs here (elsewhere every command already runs unconfined).
 */
export async function sandboxNote(
  settings: SandboxSettings,
  workspace: readonly string[],
  decideOutside: () => PolicyDecision,
): Promise<SandboxNote> {
  if (!settings.enabled)
    return { state: 'disabled', text: 'off ([sandbox] enabled = false): the command runs with your full access' };
  const probe = await probeBwrapInBackground(settings.bwrapPath);
  if (!probe.ok) {
    return settings.required
      ? {
          state: 'refused',
          text: `cannot run here (${probe.reason}); [sandbox] required = true, so Bash refuses the command`,
        }
      : {
          state: 'unavailable',
          text: `cannot run here (${probe.reason}): the command runs with your full access`,
        };
  }
  const writable = [...workspace, ...settings.writablePaths].join(', ');
  return {
    state: 'sandboxed',
    text:
      `runs sandboxed: it can write only ${writable}, the session's folder and a private /tmp; the rest of the ` +
      `file system is read-only, home dotfiles, secret files and JARVIS_CODE_HOME are hidden, ${networkWords(settings)}`,
    unsandboxed: decideOutside(),
  };
}

/** The rows of the text report: `sandbox …`, and `outside …` with the decision for an unsandboxed run. */
export function sandboxRows(note: SandboxNote): Array<[string, string]> {
  const rows: Array<[string, string]> = [['sandbox', note.text]];
  const d = note.unsandboxed;
  if (d) {
    const after =
      d.decision === 'allow' ? ', and it would run with your full access' : d.reason ? ` — ${d.reason}` : '';
    rows.push(['outside', `asked with dangerously_unsandboxed: ${d.decision} by ${d.by}${after}`]);
  }
  return rows;
}
