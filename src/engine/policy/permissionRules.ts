// Permission rule patterns: `Tool` or `Tool(arg-glob)`. Path subjects (Read/Write/Edit/Grep/Glob…)
// match with picomatch, case-insensitively, after normalising `../` and `~` against the cwd; other
// subjects (Bash commands) match with a plain glob where `*` spans anything, spaces and slashes too.
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import picomatch from 'picomatch';
import { canonicalToolName } from '../../types/toolNames';

export interface ParsedPattern {
  tool: string;
  arg?: string;
}

const PATH_TOOLS = new Set(['Read', 'Write', 'Edit', 'Grep', 'Glob', 'ReadMediaFile']);

/**
 * Rules written for Claude Code or opencode read as theirs do (docs/approvals.md, "Rules from other
 * tools"): tool names through the alias table (`WebFetch` is FetchURL), and Claude's prefix form
 * `Bash(npm test:*)` as `Bash(npm test *)`, which also holds against a bare `npm test`.
 */
export function parsePattern(pattern: string): ParsedPattern {
  const m = /^([^()\s]+)(?:\((.*)\))?$/s.exec(pattern.trim());
  if (!m) throw new Error(`invalid permission pattern "${pattern}": expected Tool or Tool(argument-glob)`);
  const tool = canonicalToolName(m[1]);
  if (m[2] === undefined) return { tool };
  const arg = tool === 'Bash' && m[2].endsWith(':*') ? `${m[2].slice(0, -2).trimEnd()} *` : m[2];
  return { tool, arg };
}

/** `domain:example.com` (Claude's WebFetch rule) holds for that host; `domain:*.example.com` for its subdomains. */
function domainMatches(domain: string, url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  const want = domain.trim().toLowerCase();
  if (want.startsWith('*.')) return host.endsWith(want.slice(1));
  return host === want;
}

export function parseSubject(subject: string): ParsedPattern {
  const open = subject.indexOf('(');
  if (open < 0 || !subject.endsWith(')')) return { tool: subject };
  return { tool: subject.slice(0, open), arg: subject.slice(open + 1, -1) };
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) {
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

function normalisePathGlob(glob: string, cwd: string): string {
  if (glob === '~' || glob.startsWith('~/')) return homedir() + glob.slice(1);
  if (isAbsolute(glob) || glob.startsWith('*')) return glob;
  return resolve(cwd, glob);
}

export function toolMatches(patternTool: string, subjectTool: string): boolean {
  if (!patternTool.includes('*')) return patternTool === subjectTool;
  // MCP names support `*` (one segment) and `**` (anything).
  const re = patternTool
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+^${}()|[\]\\?]/g, '\\$&'))
        .join('[^_]*'),
    )
    .join('.*');
  return new RegExp(`^${re}$`).test(subjectTool) || globToRegExp(patternTool).test(subjectTool);
}

/** True when `pattern` (a rule) matches `subject` (what a call presents to the rules). */
export function patternMatches(pattern: string, subject: string, cwd: string): boolean {
  const p = parsePattern(pattern);
  const s = parseSubject(subject);
  if (!toolMatches(p.tool, s.tool)) return false;
  if (p.arg === undefined) return true;
  if (s.arg === undefined) return false;
  if (s.tool === 'FetchURL' && p.arg.startsWith('domain:')) return domainMatches(p.arg.slice(7), s.arg);
  if (PATH_TOOLS.has(s.tool)) {
    return picomatch(normalisePathGlob(p.arg, cwd), { nocase: true, dot: true })(s.arg);
  }
  return globToRegExp(p.arg).test(s.arg);
}

/**
 * Programs whose first argument is a subcommand (`git push`, `npm test`): a session approval of one of them
 * covers that subcommand only. Any other program is remembered by its name alone (`echo a` → `Bash(echo *)`).
 */
const SUBCOMMAND_PROGRAMS = new Set([
  ...['git', 'gh', 'npm', 'pnpm', 'yarn', 'bun', 'deno', 'npx', 'cargo', 'go', 'rustup', 'uv', 'poetry', 'pip'],
  ...['pip3', 'conda', 'docker', 'podman', 'kubectl', 'helm', 'terraform', 'make', 'dotnet', 'mvn', 'gradle'],
  ...['apt', 'apt-get', 'brew', 'systemctl', 'jarvis'],
]);
/** Subcommands that run a named script: the script's name is part of the kind (`npm run build`). */
const SCRIPT_SUBCOMMANDS = new Set(['run', 'exec', 'run-script']);
const PLAIN_WORD = /^[A-Za-z][\w:.-]*$/;

/**
 * What "approve for this session" remembers: the kind of call, not the literal one (docs/approvals.md). A
 * command is remembered by its program, and for programs with subcommands by its subcommand too
 * (`Bash(sleep *)`, `Bash(npm test *)`; a trailing ` *` also covers the bare command); a file tool by the
 * folder of its path (`Edit(/repo/src/**)`); anything else by its tool name.
 */
export function sessionApprovalPattern(subject: string): string {
  const s = parseSubject(subject);
  if (s.arg === undefined) return s.tool;
  if (PATH_TOOLS.has(s.tool)) {
    const dir = s.arg.slice(0, Math.max(1, s.arg.lastIndexOf('/')));
    return `${s.tool}(${dir === '/' ? '' : dir}/**)`;
  }
  if (s.tool === 'Bash') {
    // A compound command is remembered only literally: approving `ls` must not approve `ls; rm -rf ~`.
    if (/[;&|`$<>()\n*?]/.test(s.arg)) return subject;
    const words = s.arg.trim().split(/\s+/);
    const prefix = [words[0]];
    if (SUBCOMMAND_PROGRAMS.has(words[0]) && words[1] && PLAIN_WORD.test(words[1])) {
      prefix.push(words[1]);
      if (SCRIPT_SUBCOMMANDS.has(words[1]) && words[2] && PLAIN_WORD.test(words[2])) prefix.push(words[2]);
    }
    return `Bash(${prefix.join(' ')} *)`;
  }
  return subject;
}
