// Write: create, overwrite or append to a file. The read-before-write and stale checks are the
// shared guard's job (the tool declares a write access); this file only does the writing.
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolResult } from '../defineTool';
import { EDITOR_FILES } from './editorFiles';
import { readHead } from './mediaTypes';
import { resolveToolPath } from './pathPolicy';
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

async function existingSize(path: string): Promise<number | undefined | 'not-a-file'> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : 'not-a-file';
  } catch {
    return undefined;
  }
}

/** Where a text file (not UTF-16, not binary) stops being valid UTF-8; read as a stream, stopping there. */
async function undecodableText(path: string): Promise<InvalidUtf8 | undefined> {
  const head = await readHead(path, 4096);
  if (isUtf16(detectEncoding(head)) || looksBinary(head)) return undefined;
  const scanner = new Utf8Scanner();
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream) {
      scanner.feed(chunk as Buffer);
      if (scanner.invalid) return scanner.invalid;
    }
  } finally {
    stream.destroy();
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
  accesses: (args, ctx) => [{ kind: 'write', path: resolveToolPath(ctx, args.path) }],
  async execute(args, ctx) {
    const path = resolveToolPath(ctx, args.path);
    const size = await existingSize(path);
    if (size === 'not-a-file') return error(`${path} exists and is not a regular file (a directory?); Write only writes files.`);
    const invalid = size !== undefined && args.mode === 'overwrite' ? await undecodableText(path) : undefined;
    if (invalid) {
      return error(
        `${path} is not valid UTF-8 (the first undecodable byte is on line ${invalid.line}); overwriting it would lose those bytes, ` +
          'which Read shows as U+FFFD. Change it with Edit (which keeps the bytes it does not match), or delete the file with Bash first if you mean to replace it entirely.',
      );
    }
    const before = size !== undefined && size <= DIFF_DISPLAY_MAX_BYTES ? await readFile(path, 'utf8') : size === undefined ? '' : undefined;
    // Under an editor (ACP) the text goes to its buffer; an append to a file too big to hold goes to disk.
    const editor = ctx.services.find(EDITOR_FILES);
    const viaEditor = editor?.canWrite && (args.mode === 'overwrite' || before !== undefined) ? editor : undefined;
    try {
      await mkdir(dirname(path), { recursive: true });
      if (viaEditor) await viaEditor.writeText(path, args.mode === 'append' ? (before ?? '') + args.content : args.content, ctx.signal);
      else if (args.mode === 'append') await appendFile(path, args.content, 'utf8');
      else await writeFile(path, args.content, 'utf8');
    } catch (e) {
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
