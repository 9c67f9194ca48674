// What the approval panel shows about a call: the diff a Write or Edit would make (against the file
// on disk), the command a Bash call would run, or the arguments of anything else.
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ApprovalRequest } from '../engine/policy/approvals';
import { diffLines, diffStats, renderDiff } from './diffView';
import type { Theme } from './theme';

const PREVIEW_MAX_BYTES = 1024 * 1024;

function readIfSmall(path: string): string | undefined {
  try {
    const info = statSync(path);
    if (!info.isFile() || info.size > PREVIEW_MAX_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export interface Preview {
  title: string;
  lines: string[];
}

export function approvalPreview(request: ApprovalRequest, cwd: string, theme: Theme): Preview {
  const args = (request.args ?? {}) as Record<string, unknown>;
  const { fg } = theme;
  const pathArg =
    typeof args.path === 'string' ? args.path : typeof args.file_path === 'string' ? args.file_path : undefined;
  const abs = pathArg ? (isAbsolute(pathArg) ? pathArg : resolve(cwd, pathArg)) : undefined;
  const diffPreview = (before: string, after: string, verb: string): Preview => {
    const ops = diffLines(before, after);
    const { added, removed } = diffStats(ops);
    return {
      title: `${verb} ${pathArg} ${fg.diffAdded(`+${added}`)} ${fg.diffRemoved(`-${removed}`)}`,
      lines: renderDiff(ops, theme),
    };
  };
  if (request.preview?.kind === 'diff')
    return diffPreview(request.preview.before, request.preview.after, request.toolName);
  if (request.preview?.kind === 'text') return { title: request.subject, lines: request.preview.text.split('\n') };
  if (request.toolName === 'Write' && abs && typeof args.content === 'string') {
    const before = readIfSmall(abs);
    if (before !== undefined) {
      const after = args.mode === 'append' ? before + args.content : args.content;
      return diffPreview(before, after, before === '' ? 'Create' : 'Write');
    }
  }
  if (
    request.toolName === 'Edit' &&
    abs &&
    typeof args.old_string === 'string' &&
    typeof args.new_string === 'string'
  ) {
    const before = readIfSmall(abs);
    if (before && before.includes(args.old_string)) {
      const after = args.replace_all
        ? before.split(args.old_string).join(args.new_string)
        : before.replace(args.old_string, () => String(args.new_string));
      return diffPreview(before, after, 'Edit');
    }
    return diffPreview(args.old_string, args.new_string, 'Edit');
  }
  if (typeof args.command === 'string')
    return { title: 'Run a shell command', lines: args.command.split('\n').map((l) => fg.accent(`$ ${l}`)) };
  const json = JSON.stringify(request.args, null, 2) ?? '';
  return { title: request.subject, lines: json.split('\n').map((l) => fg.textDim(l)) };
}
