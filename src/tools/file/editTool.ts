// Edit: exact string replacement in an existing file. The read-before-edit and stale checks are
// the shared guard's (a declared write access); matching and hints live in editMatching.ts.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolResult } from '../defineTool';
import { approvedAccess, fileAccess, O_RDWR, openChecked, replaceContent } from './checkedOpen';
import { EDITOR_FILES } from './editorFiles';
import { applyReplacements, explainNoMatch, findOccurrences, lineNumberAt } from './editMatching';
import { PathRejectedError, resolveToolPath } from './pathPolicy';
import { DIFF_DISPLAY_MAX_BYTES } from './writeTool';
import {
  bomLength,
  decodeText,
  detectEncoding,
  encodeText,
  isUtf16,
  looksBinary,
  MAX_UTF16_BYTES,
} from './textEncoding';
import { findInvalidUtf8 } from './utf8Validity';
import description from './edit.md';

/** Edit works on the whole file in memory; larger files should be changed with other means. */
export const EDIT_MAX_BYTES = 50 * 1024 * 1024;

const schema = z
  .object({
    path: z.string(),
    old_string: z
      .string()
      .min(1, { error: 'old_string is empty: give the exact text to replace (to create a file, use Write)' }),
    new_string: z.string(),
    replace_all: z.boolean().default(false),
  })
  .refine((a) => a.old_string !== a.new_string, {
    error: 'old_string and new_string are identical, so the edit would change nothing; give the new text in new_string',
    path: ['new_string'],
  });

function error(content: string): ToolResult {
  return { content, isError: true };
}

function invalidUtf8Hint(line: number, oldString: string): string {
  const why = oldString.includes('\uFFFD')
    ? 'old_string contains U+FFFD, which Read shows in place of bytes that are not UTF-8; those bytes cannot be written as text. '
    : '';
  return `\n${why}This file is not valid UTF-8 (first at line ${line}): match only text around the undecodable bytes, or change them with Bash.`;
}

export const editTool = defineTool({
  name: 'Edit',
  optionalServices: [EDITOR_FILES],
  description,
  schema,
  readOnly: false,
  defaultApproval: 'ask',
  subject: (args, ctx) => `Edit(${resolveToolPath(ctx, args.path)})`,
  accesses: (args, ctx) => [fileAccess('write', resolveToolPath(ctx, args.path))],
  async execute(args, ctx) {
    const access = approvedAccess(ctx, args.path, 'write');
    const path = access.path;
    // Read and written through one checked descriptor (checkedOpen.ts): the file changed is the file matched.
    let opened;
    try {
      opened = await openChecked(access, O_RDWR);
    } catch (e) {
      if (e instanceof PathRejectedError) return error(e.message);
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        return error(`${path} does not exist. Edit only changes existing files; to create one, use Write.`);
      if (code === 'EISDIR') return error(`${path} is not a regular file; Edit only changes files.`);
      return error(`Could not open ${path} to change it: ${(e as Error).message}`);
    }
    try {
      return await editOpened(opened.handle, opened.info, path, args, ctx);
    } finally {
      await opened.handle.close();
    }
  },
});

async function editOpened(
  file: FileHandle,
  info: Stats,
  path: string,
  args: z.infer<typeof schema>,
  ctx: ToolContext<typeof EDITOR_FILES>,
): Promise<ToolResult> {
  if (!info.isFile()) return error(`${path} is not a regular file; Edit only changes files.`);
  if (info.size > EDIT_MAX_BYTES)
    return error(
      `${path} is ${info.size} bytes, over Edit's ${EDIT_MAX_BYTES / (1024 * 1024)} MiB limit; change it with Bash (sed) instead.`,
    );

  const bytes = await file.readFile();
  const encoding = detectEncoding(bytes.subarray(0, 4096));
  if (isUtf16(encoding) && bytes.length > MAX_UTF16_BYTES)
    return error(`${path} is a UTF-16 file over ${MAX_UTF16_BYTES / (1024 * 1024)} MiB; change it with Bash instead.`);
  if (!isUtf16(encoding) && looksBinary(bytes.subarray(0, 4096)))
    return error(`${path} looks like a binary file; Edit only changes text files.`);
  // A file that is not valid UTF-8 is edited as bytes (one char per byte, latin1), so only the
  // matched bytes change and every undecodable byte elsewhere is written back as it was.
  const invalid = isUtf16(encoding) ? undefined : findInvalidUtf8(bytes);
  const asText = (raw: Buffer) => (invalid ? raw.toString('latin1') : decodeText(raw, encoding));
  // Plain UTF-8 text is edited in the editor's buffer when there is one (ACP): its unsaved text is
  // what gets matched, and the result goes back to the buffer. Other encodings keep their bytes on disk.
  const editor = encoding === 'utf8' && !invalid ? ctx.services.find(EDITOR_FILES) : undefined;
  let before: string;
  try {
    before = editor?.canRead ? await editor.readText(path, ctx.signal) : asText(bytes);
  } catch (e) {
    return error(`Could not read ${path} through the editor: ${(e as Error).message}`);
  }
  const needle = invalid ? asText(Buffer.from(args.old_string, 'utf8')) : args.old_string;

  const occurrences = findOccurrences(before, needle);
  if (occurrences.length === 0) {
    const readable = invalid ? bytes.toString('utf8') : before;
    return error(
      `old_string was not found in ${path}.\n${explainNoMatch(readable, args.old_string)}${invalid ? invalidUtf8Hint(invalid.line, args.old_string) : ''}`,
    );
  }
  if (occurrences.length > 1 && !args.replace_all) {
    const lines = occurrences.slice(0, 10).map((o) => lineNumberAt(before, o.index));
    const more = occurrences.length > 10 ? ', …' : '';
    return error(
      `old_string occurs ${occurrences.length} times in ${path} (lines ${lines.join(', ')}${more}). ` +
        'Include more surrounding text so it matches exactly once, or set replace_all: true to replace every occurrence.',
    );
  }

  const replacement = invalid ? asText(Buffer.from(args.new_string, 'utf8')) : args.new_string;
  const after = applyReplacements(before, occurrences, replacement);
  const output = invalid ? Buffer.from(after, 'latin1') : encodeText(after, encoding, bomLength(encoding, bytes) > 0);
  try {
    if (editor?.canWrite) await editor.writeText(path, after, ctx.signal);
    else await replaceContent(file, output);
  } catch (e) {
    return error(`Could not write ${path}${editor?.canWrite ? ' through the editor' : ''}: ${(e as Error).message}`);
  }
  const firstLine = lineNumberAt(before, occurrences[0].index);
  const what = occurrences.length === 1 ? `1 occurrence at line ${firstLine}` : `${occurrences.length} occurrences`;
  const kept = invalid
    ? ` The file is not valid UTF-8 (first at line ${invalid.line}); only the matched bytes changed, the rest is byte for byte as it was.`
    : '';
  const shown = invalid ? { before: bytes.toString('utf8'), after: output.toString('utf8') } : { before, after };
  return {
    content: `Edited ${path}: replaced ${what}.${kept}`,
    summary: `Edited ${path} (${occurrences.length} replacement${occurrences.length === 1 ? '' : 's'})`,
    ...(bytes.length <= DIFF_DISPLAY_MAX_BYTES ? { display: { kind: 'diff' as const, path, ...shown } } : {}),
  };
}
