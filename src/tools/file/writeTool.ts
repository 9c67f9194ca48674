// Write: create, overwrite or append to a file. The read-before-write and stale checks are the
// shared guard's job (the tool declares a write access); this file only does the writing.
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolResult } from '../defineTool';
import { approvedAccess, chunksOf, ensureFolder, fileAccess, O_RDONLY, openChecked, writeChecked } from './checkedOpen';
import type { FileAccess } from './checkedOpen';
import { EDITOR_FILES } from './editorFiles';
import { PathRejectedError, resolveToolPath } from './pathPolicy';
import { detectEncoding, isUtf16, looksBinary } from './textEncoding';
import { Utf8Scanner, type InvalidUtf8 } from './utf8Validity';
import description from './write.md';

/** Write and Edit attach a before/after diff for front ends to files up to this size. */
export const DIFF_DISPLAY_MAX_BYTES = 1024 * 1024;

const schema = z.object({
  path: z.string(),
  content: z.string(),
  mode: z.enum(['overwrite', 'append']).default('overwrite'),
});

function error(content: string): ToolResult {
  return { content, isError: true };
}

/** What is at the path now: nothing, something that is not a regular file, or a file (size, checks). */
type Existing = undefined | 'not-a-file' | { size: number; invalid?: InvalidUtf8; before?: string };

/** Looks at the existing file through a checked descriptor (checkedOpen.ts): what Write must know first. */
async function existing(access: FileAccess, mode: 'overwrite' | 'append'): Promise<Existing> {
  let opened;
  try {
    opened = await openChecked(access, O_RDONLY);
  } catch (e) {
    // Nothing there (or a file where a folder should be): the write itself reports what is in the way.
    if (['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw e;
  }
  const { handle, info } = opened;
  try {
    if (!info.isFile()) return 'not-a-file';
    const invalid = mode === 'overwrite' ? await undecodableText(handle) : undefined;
    const before = info.size <= DIFF_DISPLAY_MAX_BYTES ? (await handle.readFile()).toString('utf8') : undefined;
    return { size: info.size, ...(invalid ? { invalid } : {}), ...(before === undefined ? {} : { before }) };
  } finally {
    await handle.close();
  }
}

/** Where a text file (not UTF-16, not binary) stops being valid UTF-8; read as a stream, stopping there. */
async function undecodableText(file: FileHandle): Promise<InvalidUtf8 | undefined> {
  const buffer = Buffer.alloc(4096);
  const head = buffer.subarray(0, (await file.read(buffer, 0, 4096, 0)).bytesRead);
  if (isUtf16(detectEncoding(head)) || looksBinary(head)) return undefined;
  const scanner = new Utf8Scanner();
  for await (const chunk of chunksOf(file, 0, 64 * 1024)) {
    scanner.feed(chunk);
    if (scanner.invalid) return scanner.invalid;
  }
  return scanner.end();
}

export const writeTool = defineTool({
  name: 'Write',
  optionalServices: [EDITOR_FILES],
  description,
  schema,
  readOnly: false,
  defaultApproval: 'ask',
  subject: (args, ctx) => `Write(${resolveToolPath(ctx, args.path)})`,
  accesses: (args, ctx) => [fileAccess('write', resolveToolPath(ctx, args.path))],
  async execute(args, ctx) {
    const access = approvedAccess(ctx, args.path, 'write');
    const path = access.path;
    let found: Existing;
    try {
      found = await existing(access, args.mode);
    } catch (e) {
      if (e instanceof PathRejectedError) return error(e.message);
      return error(`Could not look at ${path} before writing it: ${(e as Error).message}`);
    }
    if (found === 'not-a-file')
      return error(`${path} exists and is not a regular file (a directory?); Write only writes files.`);
    const size = found?.size;
    const invalid = found?.invalid;
    if (invalid) {
      return error(
        `${path} is not valid UTF-8 (the first undecodable byte is on line ${invalid.line}); overwriting it would lose those bytes, ` +
          'which Read shows as U+FFFD. Change it with Edit (which keeps the bytes it does not match), or delete the file with Bash first if you mean to replace it entirely.',
      );
    }
    const before = found === undefined ? '' : found.before;
    // Under an editor (ACP) the text goes to its buffer; an append to a file too big to hold goes to disk.
    const editor = ctx.services.find(EDITOR_FILES);
    const viaEditor = editor?.canWrite && (args.mode === 'overwrite' || before !== undefined) ? editor : undefined;
    try {
      if (viaEditor) {
        await ensureFolder(dirname(path));
        await viaEditor.writeText(
          path,
          args.mode === 'append' ? (before ?? '') + args.content : args.content,
          ctx.signal,
        );
      } else await writeChecked(access, Buffer.from(args.content, 'utf8'), args.mode);
    } catch (e) {
      if (e instanceof PathRejectedError) return error(e.message);
      return error(`Could not write ${path}${viaEditor ? ' through the editor' : ''}: ${(e as Error).message}`);
    }
    const bytes = Buffer.byteLength(args.content, 'utf8');
    const verb = size === undefined ? 'Created' : args.mode === 'append' ? 'Appended to' : 'Overwrote';
    const after = before === undefined ? undefined : args.mode === 'append' ? before + args.content : args.content;
    return {
      content: `${verb} ${path}: wrote ${bytes} bytes.`,
      summary: `${verb} ${path} (${bytes} bytes)`,
      ...(after === undefined ? {} : { display: { kind: 'diff' as const, path, before: before ?? '', after } }),
    };
  },
});
