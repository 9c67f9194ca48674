// `@path` in a prompt attaches the file (docs/ui.md "Attaching files"): a text file's content as the
// Read tool returns it (its line, byte and line-length limits, with its note when cut), an image as
// ReadMediaFile sends it (downscaled to the session's [image] limits; only for models that take
// images), a folder as a listing of its files from the same walk as Glob. Each attachment is its own
// text part after the prompt, opened by a tag that names the path and a short label (`120 lines`), so
// a front end shows a chip instead of the content — also when a session is resumed.
//
// A mention is judged as the file tools' reads are (approvals.ts): a sensitive file, a path outside the
// workspace or a deny/ask rule is not attached (the prompt keeps the text; the agent may still Read
// it, which asks first). A word after `@` that is no existing path (`@someone`, `@types/node`) is text.
import { statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { ContentPart } from '../../llm/types';
import type { AnyServiceKey, ToolContext, ToolResult, ToolServices } from '../../tools/defineTool';
import { readMediaFileTool, readTool } from '../../tools/file';
import { walkAllFiles } from '../../tools/file/globWalk';
import { detectMedia, MEDIA_SNIFF_BYTES, readHead } from '../../tools/file/mediaTypes';
import { fileAccess, type FileAccess } from '../../tools/file/checkedOpen';
import { canonicalPath, pathDisplayer } from '../../tools/file/pathPolicy';
import { decideApproval, type PermissionRule, type PolicyDecision } from '../policy/approvals';
import { attachmentChip, attachmentTag } from '../context/attachmentTags';
import type { Runtime } from './runtime';
import { resolvePath } from '../loop/toolRunner';
import { isSensitivePath } from '../../tools/file/sensitivePaths';

/** At most this many mentions of one prompt are attached; the rest stay text. */
export const MAX_ATTACHMENTS = 10;
/** A folder's listing names at most this many files. */
export const FOLDER_LISTING_MAX = 500;

const MENTION = /(?<=^|\s)@("[^"\n]+"|[^\s"]+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

export interface AttachmentEnv {
  cwd: string;
  /** The session's tool services (the image limits, what the current model accepts, an editor's buffers). */
  services: ToolServices;
  /**
   * How the approval policy judges the tool call `Tool(path)` making this read access (a hard-linked
   * file's access says so: it counts as outside the workspace); only `allow` attaches.
   */
  judgeRead(toolName: string, access: FileAccess): PolicyDecision;
  signal?: AbortSignal;
}

export interface PromptAttachments {
  /** Content parts to send after the prompt's own text. */
  parts: ContentPart[];
  /** What the transcript shows for each attachment: `[@src/x.ts 120 lines]`. */
  chips: string[];
  /** Why a mentioned path was not attached, one line each. */
  notices: string[];
}

/** Attachments judged as the main agent's own reads would be now: its mode, remembered approvals, the rules. */
export function runtimeAttachmentEnv(
  rt: Runtime,
  rules: readonly PermissionRule[],
  cwd: string,
  signal?: AbortSignal,
): AttachmentEnv {
  return {
    cwd,
    services: rt.services,
    signal,
    judgeRead(toolName, access) {
      const state = rt.agent.permissionState();
      return decideApproval({
        toolName,
        subject: `${toolName}(${access.path})`,
        accesses: [access],
        defaultApproval: 'auto',
        mode: state.mode,
        rules,
        sessionApprovals: state.sessionApprovals,
        swarmMode: state.swarmMode,
        cwd,
        workspace: rt.workspace,
        isSensitivePath,
      });
    },
  };
}

/** The paths mentioned with `@` in a prompt, as written (quotes removed), first mention first. */
export function mentionedPaths(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const raw = m[1].startsWith('"') ? m[1].slice(1, -1) : m[1];
    if (raw && !found.includes(raw)) found.push(raw);
  }
  return found;
}

/** The existing path a mention names: as written, else without trailing punctuation (`see @a.ts.`). */
function existingPath(mention: string, cwd: string): { mention: string; abs: string; isDir: boolean } | undefined {
  for (const candidate of new Set([mention, mention.replace(TRAILING_PUNCTUATION, '')])) {
    if (!candidate || candidate.includes('\0')) continue;
    const abs = resolvePath(cwd, candidate);
    const info = statSync(abs, { throwIfNoEntry: false });
    if (info?.isFile() || info?.isDirectory()) return { mention: candidate, abs, isDir: info.isDirectory() };
  }
  return undefined;
}

/** The context the file tools run in for an attachment: `approved` is the access that was judged (checkedOpen.ts). */
function toolContext(
  env: Pick<AttachmentEnv, 'cwd' | 'services'>,
  signal: AbortSignal,
  approved?: FileAccess,
): ToolContext<AnyServiceKey> {
  return {
    cwd: env.cwd,
    signal,
    callId: 'prompt-attachment',
    services: env.services,
    ...(approved ? { approved: [approved] } : {}),
    resolve: (p) => resolvePath(env.cwd, p),
    emitProgress: () => undefined,
  };
}

function resultText(result: ToolResult): string {
  return typeof result.content === 'string'
    ? result.content
    : result.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

async function folderListing(
  path: string,
  env: AttachmentEnv,
  signal: AbortSignal,
): Promise<{ body: string; label: string }> {
  const files = await walkAllFiles(path, { cwd: env.cwd, signal, maxFiles: FOLDER_LISTING_MAX + 1 });
  const names = files.map((f) => relative(path, f).split(sep).join('/')).sort();
  const more = names.length > FOLDER_LISTING_MAX;
  const shown = names.slice(0, FOLDER_LISTING_MAX);
  const lines = shown.length ? shown : ['(no files: the folder is empty, or everything in it is ignored)'];
  if (more)
    lines.push(
      `[The listing stops at ${FOLDER_LISTING_MAX} files; use Glob with a narrower pattern to see the others.]`,
    );
  return {
    body: lines.join('\n'),
    label: more ? `${FOLDER_LISTING_MAX}+ files` : `${shown.length} file${shown.length === 1 ? '' : 's'}`,
  };
}

/**
 * An image (or video) file as ReadMediaFile sends it, downscaled to the session's [image] limits; refused
 * with its message when the current model does not take that kind of input. `shown`: the name in the tag.
 */
export async function attachMediaFile(
  path: string,
  shown: string,
  kind: 'image' | 'video',
  env: Pick<AttachmentEnv, 'cwd' | 'services'>,
  signal: AbortSignal,
  approved?: FileAccess,
): Promise<{ parts: ContentPart[]; label: string } | { problem: string }> {
  const result = await readMediaFileTool.execute({ path, full_resolution: false }, toolContext(env, signal, approved));
  if (result.isError || typeof result.content === 'string') return { problem: resultText(result) };
  const [description, ...pixels] = result.content;
  const size = /\((\d+x\d+)/.exec(description.type === 'text' ? description.text : '')?.[1];
  const label = kind === 'video' ? 'video' : `image${size ? ` ${size}` : ''}`;
  return {
    parts: [
      { type: 'text', text: attachmentTag('image', shown, label, resultText({ content: [description] })) },
      ...pixels,
    ],
    label,
  };
}

/** One mention's parts and chip label, or why it was not attached. */
async function attachOne(
  found: { mention: string; abs: string; isDir: boolean },
  env: AttachmentEnv,
  signal: AbortSignal,
): Promise<{ parts: ContentPart[]; label: string } | { notice: string }> {
  const path = canonicalPath(found.abs);
  const shown = pathDisplayer(env.cwd)(path) + (found.isDir ? '/' : '');
  const media = found.isDir ? undefined : detectMedia(await readHead(path, MEDIA_SNIFF_BYTES), path);
  const isMedia = media !== undefined && media.format !== 'svg';
  const toolName = found.isDir ? 'Glob' : isMedia ? 'ReadMediaFile' : 'Read';
  const access = fileAccess('read', path);
  const decision = env.judgeRead(toolName, access);
  if (decision.decision !== 'allow') {
    const why = decision.reason ?? decision.by;
    const after = decision.decision === 'ask' ? ' The agent can still read it with a tool, which asks you first.' : '';
    return { notice: `@${found.mention} was not attached: ${why}.${after}` };
  }
  if (found.isDir) {
    const { body, label } = await folderListing(path, env, signal);
    return { parts: [{ type: 'text', text: attachmentTag('folder', shown, label, body) }], label };
  }
  if (media && isMedia) {
    const attached = await attachMediaFile(path, shown, media.kind, env, signal, access);
    return 'problem' in attached ? { notice: `@${found.mention} was not attached: ${attached.problem}` } : attached;
  }
  const result = await readTool.execute({ path }, toolContext(env, signal, access));
  const text = resultText(result);
  if (result.isError) return { notice: `@${found.mention} was not attached: ${text}` };
  const lines = result.display?.kind === 'file' ? result.display.lines : 0;
  const cut = text.includes('\n\n[Truncated:');
  const label = `${lines} line${lines === 1 ? '' : 's'}${cut ? ', cut' : ''}`;
  return { parts: [{ type: 'text', text: attachmentTag('file', shown, label, text) }], label };
}

/** Reads every `@path` of `text` that names an existing file or folder and may be read without asking. */
export async function attachMentions(text: string, env: AttachmentEnv): Promise<PromptAttachments> {
  const out: PromptAttachments = { parts: [], chips: [], notices: [] };
  const signal = env.signal ?? new AbortController().signal;
  const seen = new Set<string>();
  for (const mention of mentionedPaths(text)) {
    const found = existingPath(mention, env.cwd);
    if (!found || seen.has(found.abs)) continue;
    seen.add(found.abs);
    if (seen.size > MAX_ATTACHMENTS) {
      out.notices.push(`@${found.mention} was not attached: a prompt attaches at most ${MAX_ATTACHMENTS} files.`);
      continue;
    }
    let attached;
    try {
      attached = await attachOne(found, env, signal);
    } catch (e) {
      signal.throwIfAborted();
      attached = { notice: `@${found.mention} was not attached: ${(e as Error).message}` };
    }
    if ('notice' in attached) out.notices.push(attached.notice);
    else {
      out.parts.push(...attached.parts);
      out.chips.push(attachmentChip(found.mention, attached.label));
    }
  }
  return out;
}
