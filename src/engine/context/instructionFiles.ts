// The instruction files of a launch (docs/compatibility.md "AGENTS.md and CLAUDE.md"), in the order they are put in
// the system prompt — later files are more specific and win where they disagree: $JARVIS_CODE_HOME/AGENTS.md,
// ~/.agents/AGENTS.md, ~/.claude/CLAUDE.md (Claude Code's user memory), then each folder from the repository root
// down to the working folder, each with AGENTS.md (the root also .jarvis-code/AGENTS.md), CLAUDE.md,
// CLAUDE.local.md, GEMINI.md (Gemini CLI's; its user file ~/.gemini/GEMINI.md after Claude's). `[compat]
// nested_agents_md = false` keeps only the root; `claude_md = false` skips the CLAUDE files, `gemini = false` the
// GEMINI ones. A CLAUDE.md or GEMINI.md that is the same file or text as an AGENTS.md already read is left out. The
// `@path` imports of CLAUDE and GEMINI files are expanded (claudeImports.ts: both tools read them the same way). All together are bounded by INSTRUCTIONS_MAX_BYTES; what is cut says
// so.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { DEFAULT_COMPAT, type CompatSettings } from '../../store/compat';
import { projectRoot } from '../../store/paths';
import { expandClaudeImports } from './claudeImports';

/** The bytes of all instruction files together that go into the system prompt. */
export const INSTRUCTIONS_MAX_BYTES = 64 * 1024;

export type InstructionKind = 'agents' | 'claude' | 'claude-local' | 'gemini';

export interface InstructionCandidate {
  path: string;
  kind: InstructionKind;
  /** Below the repository root (read only with `nested_agents_md`). */
  nested: boolean;
  /** The `[compat]` key that switched it off, if one did. */
  offBy?: 'claude_md' | 'nested_agents_md' | 'gemini';
}

export interface InstructionFile extends InstructionCandidate {
  /** What goes in the prompt (possibly cut, with its notice). */
  text: string;
  bytes: number;
  /** Bytes left out by the budget (0 = whole). */
  cutBytes: number;
  /** Files its `@path` imports brought in (CLAUDE files only). */
  imports: string[];
}

export interface InstructionScan {
  files: InstructionFile[];
  /** CLAUDE files left out because an AGENTS.md already read is the same file or text. */
  duplicates: Array<{ path: string; of: string }>;
  warnings: string[];
}

/** Folders from the repository root down to `cwd`, root first (only `cwd` when it is outside every repository). */
function levels(cwd: string): string[] {
  const root = projectRoot(cwd);
  const rel = relative(root, cwd);
  if (!rel || rel.startsWith('..')) return [cwd];
  const out = [root];
  for (const part of rel.split(sep)) out.push(join(out[out.length - 1], part));
  return out;
}

/** Claude Code's user-level memory file. */
function userClaudeMd(): string {
  return join(homedir(), '.claude', 'CLAUDE.md');
}

/** Gemini CLI's user-level context file. */
function userGeminiMd(): string {
  return join(homedir(), '.gemini', 'GEMINI.md');
}

export function instructionCandidates(home: string, cwd: string, compat: CompatSettings): InstructionCandidate[] {
  const out: InstructionCandidate[] = [
    { path: join(home, 'AGENTS.md'), kind: 'agents', nested: false },
    { path: join(homedir(), '.agents', 'AGENTS.md'), kind: 'agents', nested: false },
    { path: userClaudeMd(), kind: 'claude', nested: false, offBy: compat.claudeMd ? undefined : 'claude_md' },
    { path: userGeminiMd(), kind: 'gemini', nested: false, offBy: compat.gemini ? undefined : 'gemini' },
  ];
  levels(cwd).forEach((dir, depth) => {
    const nested = depth > 0;
    const offNested = nested && !compat.nestedAgentsMd ? ('nested_agents_md' as const) : undefined;
    const claude = (path: string, kind: InstructionKind): InstructionCandidate => ({
      path,
      kind,
      nested,
      offBy: offNested ?? (compat.claudeMd ? undefined : 'claude_md'),
    });
    out.push({ path: join(dir, 'AGENTS.md'), kind: 'agents', nested, offBy: offNested });
    if (!nested) out.push({ path: join(dir, '.jarvis-code', 'AGENTS.md'), kind: 'agents', nested });
    out.push(claude(join(dir, 'CLAUDE.md'), 'claude'), claude(join(dir, 'CLAUDE.local.md'), 'claude-local'));
    out.push({
      path: join(dir, 'GEMINI.md'),
      kind: 'gemini',
      nested,
      offBy: offNested ?? (compat.gemini ? undefined : 'gemini'),
    });
  });
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.path) && seen.add(c.path));
}

/** Cuts `text` to at most `max` UTF-8 bytes on a character boundary. */
function cutToBytes(text: string, max: number): string {
  const buf = Buffer.from(text);
  if (buf.length <= max) return text;
  let end = max;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

function readCandidate(path: string, warnings: string[]): string | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    // Saved on Windows or by an editor that adds a BOM: the prompt gets plain lines.
    return (
      readFileSync(path, 'utf8')
        .replace(/^\uFEFF/, '')
        .replace(/\r\n?/g, '\n')
        .trim() || undefined
    );
  } catch (e) {
    // An absent file is the normal case; one that exists and cannot be read is the user's to fix.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    const why = e instanceof Error ? e.message : String(e);
    warnings.push(`agents-md-unreadable: ${path} exists but cannot be read (${why}); its instructions are not applied`);
    return undefined;
  }
}

export function scanInstructionFiles(
  home: string,
  cwd: string,
  compat: CompatSettings = DEFAULT_COMPAT,
  maxBytes = INSTRUCTIONS_MAX_BYTES,
): InstructionScan {
  const warnings: string[] = [];
  const files: InstructionFile[] = [];
  const duplicates: InstructionScan['duplicates'] = [];
  const readAgents = new Map<string, { path: string; text: string }>();
  const root = projectRoot(cwd);
  let left = maxBytes;
  for (const c of instructionCandidates(home, cwd, compat)) {
    if (c.offBy) continue;
    let text = readCandidate(c.path, warnings);
    if (text === undefined) continue;
    const real = realpathSync(c.path);
    let imports: string[] = [];
    if (c.kind !== 'agents') {
      const sibling = readAgents.get(dirname(c.path));
      // ~/.claude/CLAUDE.md and ~/.gemini/GEMINI.md have no AGENTS.md beside them: the user-level AGENTS.md files
      // are their siblings.
      const userLevel = c.path === userClaudeMd() || c.path === userGeminiMd();
      const byText = userLevel ? [...readAgents.values()].find((a) => a.text === text) : undefined;
      const same = readAgents.get(real) ?? (sibling?.text === text ? sibling : byText);
      if (same) {
        duplicates.push({ path: c.path, of: same.path });
        continue;
      }
      if (left > 0) {
        const expanded = expandClaudeImports(c.path, text, { home: homedir(), projectRoot: root, maxBytes: left });
        warnings.push(...expanded.warnings);
        text = expanded.text;
        imports = expanded.imported;
      }
    } else {
      readAgents.set(real, { path: c.path, text });
      readAgents.set(dirname(c.path), { path: c.path, text });
    }
    const bytes = Buffer.byteLength(text);
    const kept = Math.max(0, Math.min(bytes, left));
    left -= kept;
    let shown = kept === bytes ? text : cutToBytes(text, kept);
    if (kept < bytes) {
      const notice = kept
        ? `[cut: this file is ${bytes} bytes and only the first ${kept} fit the ${maxBytes}-byte budget of ` +
          `instruction files; read the rest with the Read tool]`
        : `[not included: the ${maxBytes}-byte budget of instruction files is spent; ` +
          'read this file with the Read tool]';
      shown = kept ? `${shown}\n${notice}` : notice;
      warnings.push(
        `agents-md-cut: ${c.path}: ${bytes - kept} of its ${bytes} bytes are left out (budget ${maxBytes})`,
      );
    }
    files.push({ ...c, text: shown, bytes, cutBytes: bytes - kept, imports });
  }
  return { files, duplicates, warnings };
}
