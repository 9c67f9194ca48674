// Write: create, overwrite or append to a file. The read-before-write and stale checks are the
// shared guard's job (the tool declares a write access); this file only does the writing.
import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolResult } from '../defineTool';
import { resolveToolPath } from './pathPolicy';
import description from './write.md';

/** Write and Edit attach a before/after diff for front ends to files up to this size. */
export const DIFF_DISPLAY_MAX_BYTES = 1024 * 1024;

const schema = z.object({
  path: z.string().describe('File to write: relative to the working directory, or absolute.'),
  content: z.string().describe('The full text to write (or to append).'),
  mode: z.enum(['overwrite', 'append']).default('overwrite').describe('overwrite (default) or append (no newline added).'),
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

export const writeTool = defineTool({
  name: 'Write',
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
    const before = size !== undefined && size <= DIFF_DISPLAY_MAX_BYTES ? await readFile(path, 'utf8') : size === undefined ? '' : undefined;
    try {
      await mkdir(dirname(path), { recursive: true });
      if (args.mode === 'append') await appendFile(path, args.content, 'utf8');
      else await writeFile(path, args.content, 'utf8');
    } catch (e) {
      return error(`Could not write ${path}: ${(e as Error).message}`);
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
