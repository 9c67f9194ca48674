// Hooks of Claude Code's settings files (docs/hooks.md, "Claude Code hooks"): `~/.claude/settings.json` (the
// user's), then the project's `.claude/settings.json` and `.claude/settings.local.json` at the repository root. Every
// hook of all three runs, in that order, in Claude Code's dialect. The project's files run commands the repository
// wrote, so their hooks are used only in a trusted folder and only with the bytes the user trusted (store/trust.ts):
// a file changed since is not used until the trust prompt approves it again. `"disableAllHooks": true` in any of the
// files turns all of their hooks off, as in Claude Code. Everything else in the files (permissions, env, model…) is
// Claude Code's own business and not read.
import { join } from 'node:path';
import { sha256 } from '../../store/mcpLaunch';
import { displayPath, expandTilde, projectRoot } from '../../store/paths';
import { readRegular } from '../../store/regularFile';
import { claudeHookSpecs } from './claudeHookConfig';
import type { HookSpec } from './hookRunner';

export type ClaudeSettingsState = 'absent' | 'read' | 'off' | 'untrusted' | 'changed' | 'broken' | 'disabled';

export interface ClaudeSettingsFileReport {
  path: string;
  scope: 'user' | 'project';
  state: ClaudeSettingsState;
  /** Hooks it gives (for `read`), or would give (`untrusted`, `changed`, `disabled`). */
  hooks: number;
  /** Those hooks (the trust prompt lists their commands). */
  specs: HookSpec[];
  /** What of it is not used, and why; one line each. */
  problems: string[];
  /** SHA-256 of the bytes read (what trust records for a project file), when it could be read. */
  digest?: string;
}

export interface ClaudeSettingsHooks {
  hooks: HookSpec[];
  files: ClaudeSettingsFileReport[];
  /** For the session's start: files not used and fields not applied. */
  warnings: string[];
}

export interface ClaudeSettingsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `[compat] claude`: off reads nothing. */
  enabled: boolean;
  /**
   * A project file's standing, judged by `digest` (SHA-256 of the very bytes parsed here): approved (the trusted
   * bytes), untrusted folder, or changed since trusted.
   */
  projectFile(path: string, digest: string): 'approved' | 'untrusted' | 'changed';
}

/** The settings files in the order Claude Code applies them. */
export function claudeSettingsFiles(
  cwd: string,
  env: NodeJS.ProcessEnv,
): Array<{ path: string; scope: 'user' | 'project' }> {
  const project = join(projectRoot(cwd), '.claude');
  return [
    { path: join(expandTilde('~', env), '.claude', 'settings.json'), scope: 'user' },
    { path: join(project, 'settings.json'), scope: 'project' },
    { path: join(project, 'settings.local.json'), scope: 'project' },
  ];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The parsed file and the digest of the bytes read (one read: what is judged is what runs); nothing when it does
 * not exist; the reason when it cannot be used.
 */
function readSettings(path: string): { doc?: Record<string, unknown>; digest?: string; problem?: string } {
  const read = readRegular(path);
  if ('missing' in read) return {};
  if ('problem' in read) return { problem: `${read.problem}; its hooks are not used` };
  const bytes = read.bytes;
  const text = bytes.toString('utf8');
  const digest = sha256(bytes);
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { digest, problem: `is not valid JSON (${(e as Error).message}); its hooks are not used until it is fixed` };
  }
  if (!isObject(doc)) return { digest, problem: 'must hold a JSON object; its hooks are not used' };
  return { doc, digest };
}

export function loadClaudeSettingsHooks(opts: ClaudeSettingsOptions): ClaudeSettingsHooks {
  const out: ClaudeSettingsHooks = { hooks: [], files: [], warnings: [] };
  const read: Array<{ report: ClaudeSettingsFileReport; specs: HookSpec[] }> = [];
  let disabledBy: string | undefined;
  for (const { path, scope } of claudeSettingsFiles(opts.cwd, opts.env)) {
    const report: ClaudeSettingsFileReport = { path, scope, state: 'absent', hooks: 0, specs: [], problems: [] };
    out.files.push(report);
    if (!opts.enabled) {
      report.state = 'off';
      continue;
    }
    const { doc, digest, problem } = readSettings(path);
    report.digest = digest;
    if (problem) {
      report.state = 'broken';
      report.problems.push(`${displayPath(path)} ${problem}`);
      out.warnings.push(`${displayPath(path)} ${problem}`);
      continue;
    }
    if (!doc) continue;
    if (doc.disableAllHooks === true) disabledBy ??= path;
    if (doc.hooks === undefined) {
      report.state = 'read';
      continue;
    }
    const origin =
      scope === 'user'
        ? displayPath(path)
        : `.claude/${path.endsWith('local.json') ? 'settings.local.json' : 'settings.json'}`;
    const specs = claudeHookSpecs(doc.hooks, { origin, label: displayPath(path) }, (t) => report.problems.push(t));
    report.hooks = specs.length;
    report.specs = specs;
    const standing = scope === 'project' ? opts.projectFile(path, digest!) : 'approved';
    if (standing === 'untrusted') {
      report.state = 'untrusted';
      out.warnings.push(
        `${displayPath(path)}: ${specs.length} hook${specs.length === 1 ? '' : 's'} not used because this workspace is not trusted (trust it when the interactive UI asks)`,
      );
      continue;
    }
    if (standing === 'changed') {
      report.state = 'changed';
      out.warnings.push(
        `${displayPath(path)} changed since this workspace was trusted; its hooks are not used (to approve it, run \`jarvis\` in this folder and accept the trust prompt)`,
      );
      continue;
    }
    report.state = 'read';
    out.warnings.push(...report.problems);
    read.push({ report, specs });
  }
  if (disabledBy) {
    for (const { report } of read) report.state = 'disabled';
    if (read.some((r) => r.specs.length))
      out.warnings.push(
        `"disableAllHooks": true in ${displayPath(disabledBy)}: the hooks of Claude Code's settings files are off`,
      );
    return out;
  }
  for (const { specs } of read) out.hooks.push(...specs);
  return out;
}
