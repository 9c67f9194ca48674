// Read: a window of a text file, line-numbered, within a line and byte budget per call.
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import type { Stats } from 'node:fs';
import { defineTool, type ToolContext, type ToolResult } from '../defineTool';
import { EDITOR_FILES } from './editorFiles';
import { LSP_SERVICE } from '../lsp/lspService';
import { warmServersFor } from '../lsp/warmUp';
import { readLineWindow, type LineWindow } from './lineWindow';
import { approvedAccess, chunksOf, fileAccess, O_RDONLY, openChecked } from './checkedOpen';
import { detectMedia } from './mediaTypes';
import { PathRejectedError, resolveToolPath } from './pathPolicy';
import {
  bomLength,
  decodeText,
  detectEncoding,
  isUtf16,
  looksBinary,
  MAX_UTF16_BYTES,
  type TextEncoding,
} from './textEncoding';
import { Utf8Scanner, type InvalidUtf8 } from './utf8Validity';
import description from './read.md';

export const READ_MAX_LINES = 1000;
export const READ_MAX_BYTES = 100 * 1024;
export const READ_MAX_LINE_CHARS = 2000;
export const READ_MAX_TAIL_LINES = 1000;

const SNIFF_BYTES = 4096;
const STREAM_CHUNK_BYTES = 64 * 1024;

const schema = z.object({
  path: z.string(),
  line_offset: z
    .number()
    .int()
    .min(-READ_MAX_TAIL_LINES, {
      error: `line_offset must be at least -${READ_MAX_TAIL_LINES}: negative offsets count back from the end by at most ${READ_MAX_TAIL_LINES} lines`,
    })
    .refine((v) => v !== 0, {
      error: 'line_offset 0 is invalid: lines are numbered from 1; use a negative value to count from the end',
    })
    .optional(),
  n_lines: z.number().int().positive().optional(),
});

function error(content: string): ToolResult {
  return { content, isError: true };
}

/** Decodes the file in chunks; `scanner` sees the same bytes, to report where the UTF-8 breaks. */
async function* utf8Chunks(
  file: FileHandle,
  start: number,
  signal: AbortSignal,
  scanner: Utf8Scanner,
): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunksOf(file, start, STREAM_CHUNK_BYTES)) {
    signal.throwIfAborted();
    scanner.feed(chunk);
    yield decoder.write(chunk);
  }
  scanner.end();
  yield decoder.end();
}

/** How a carriage return inside a line is shown: a raw CR would hide the text before it on a terminal, and is easy to miss anywhere. */
const CR_SHOWN_AS = '\u240D';

function formatLine(lineNumber: number, text: string, fullLength: number): string {
  const cut = fullLength > READ_MAX_LINE_CHARS ? `… [cut: line has ${fullLength} characters]` : '';
  return `${lineNumber}\t${text.replaceAll('\r', CR_SHOWN_AS)}${cut}`;
}

const ENCODING_NAMES: Record<TextEncoding, string> = {
  utf8: 'UTF-8',
  'utf8-bom': 'UTF-8 with BOM',
  utf16le: 'UTF-16 LE',
  utf16be: 'UTF-16 BE',
};

function invalidUtf8Notice(invalid: InvalidUtf8, offsetBase: number): string {
  return (
    `[Not valid UTF-8: the first byte that is not UTF-8 text is on line ${invalid.line} (byte offset ${invalid.offset + offsetBase}); ` +
    "such bytes are shown as U+FFFD (\uFFFD) and are not the file's real content. Edit changes only the bytes it matches and keeps the others as they are; " +
    `Write refuses to overwrite this file. To see the raw bytes: sed -n '${invalid.line}p' <file> | od -c.]`
  );
}

function noticesFor(window: LineWindow, encoding: TextEncoding, requested: number): string[] {
  const notices: string[] = [];
  const of = window.totalLines !== undefined ? ` of ${window.totalLines}` : '';
  const next = `continue with line_offset=${window.lastLine + 1}`;
  if (window.moreBefore) {
    const count = window.lastLine - window.firstLine + 1;
    notices.push(
      `[Truncated: showed the last lines ${window.firstLine}-${window.lastLine}${of}; the output reached the ${READ_MAX_BYTES / 1024} KB per-call limit. ` +
        `To read the lines before, use line_offset=${Math.max(1, window.firstLine - count)} with n_lines=${Math.min(count, window.firstLine - 1)}.]`,
    );
  } else if (window.stoppedBy === 'bytes') {
    notices.push(
      `[Truncated: showed lines ${window.firstLine}-${window.lastLine}${of}; the output reached the ${READ_MAX_BYTES / 1024} KB per-call limit. To read more, ${next}.]`,
    );
  } else if (window.moreAfter) {
    const why =
      requested < READ_MAX_LINES ? `the ${requested} lines requested` : `the ${READ_MAX_LINES}-line per-call limit`;
    notices.push(
      `[Truncated: showed lines ${window.firstLine}-${window.lastLine}${of} (${why}). To read more, ${next}.]`,
    );
  }
  if (window.cutLines > 0) {
    notices.push(
      `[${window.cutLines} line(s) longer than ${READ_MAX_LINE_CHARS} characters were cut. To see the rest of such a line use Bash, e.g. sed -n '<line>p' <file> | cut -c${READ_MAX_LINE_CHARS + 1}-${READ_MAX_LINE_CHARS * 2}.]`,
    );
  }
  if (window.crlfLines > 0 && window.lfLines > 0) {
    notices.push(
      `[Mixed line endings: ${window.crlfLines} line(s) end with CRLF and ${window.lfLines} with LF. The CR of each CRLF ending is not shown; ` +
        "the file is not changed by reading, and Edit keeps each line's own ending (an edited CRLF line stays CRLF, an LF line stays LF).]",
    );
  } else if (window.crlfLines > 0) {
    notices.push('[Line endings: CRLF. The CR of each line ending is not shown; Edit keeps CRLF endings.]');
  }
  if (window.loneCrLines > 0) {
    notices.push(
      `[${window.loneCrLines} line(s) shown contain a carriage return (CR) that does not end the line, first on line ${window.firstLoneCrLine}; ` +
        `each is shown as ${CR_SHOWN_AS}. The file holds a real CR there: in Edit's old_string write it as \\r, not as ${CR_SHOWN_AS}.]`,
    );
  }
  if (isUtf16(encoding)) notices.push(`[Decoded from ${ENCODING_NAMES[encoding]}.]`);
  return notices;
}

export const readTool = defineTool({
  name: 'Read',
  optionalServices: [EDITOR_FILES, LSP_SERVICE],
  description,
  constants: {
    MAX_LINES: READ_MAX_LINES,
    MAX_KB: READ_MAX_BYTES / 1024,
    MAX_LINE_CHARS: READ_MAX_LINE_CHARS,
    MAX_TAIL_LINES: READ_MAX_TAIL_LINES,
    MAX_UTF16_MIB: MAX_UTF16_BYTES / (1024 * 1024),
  },
  schema,
  readOnly: true,
  defaultApproval: 'auto',
  // Read bounds its own output (100 KB of content plus line numbers and notices), above the central cap.
  maxOutputChars: READ_MAX_BYTES + READ_MAX_LINES * 12 + 2_000,
  subject: (args, ctx) => `Read(${resolveToolPath(ctx, args.path)})`,
  accesses: (args, ctx) => [fileAccess('read', resolveToolPath(ctx, args.path), { tracked: true })],
  async execute(args, ctx) {
    const access = approvedAccess(ctx, args.path, 'read');
    const path = access.path;
    let opened;
    try {
      opened = await openChecked(access, O_RDONLY);
    } catch (e) {
      if (e instanceof PathRejectedError) return error(e.message);
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        return error(`File not found: ${path}. Check the path (Glob can find files by name).`);
      return error(`Cannot read ${path}: ${(e as Error).message}`);
    }
    try {
      const result = await readOpened(opened.handle, opened.info, path, args, ctx);
      if (!result.isError) warmServersFor(ctx, [path]);
      return result;
    } finally {
      await opened.handle.close();
    }
  },
});

async function readOpened(
  file: FileHandle,
  info: Stats,
  path: string,
  args: z.infer<typeof schema>,
  ctx: ToolContext<typeof EDITOR_FILES>,
): Promise<ToolResult> {
  if (info.isDirectory()) {
    return error(
      `${path} is a directory; Read only reads files. List its files with Glob (path="${path}", pattern="*") or with Bash (ls).`,
    );
  }
  if (!info.isFile()) return error(`${path} is not a regular file (device, socket or pipe); Read only reads files.`);
  if (info.size === 0) {
    return {
      content: `[${path} is empty: 0 lines.]`,
      summary: 'Read empty file',
      display: { kind: 'file', path, lines: 0 },
    };
  }

  const head = await readHeadOf(file, SNIFF_BYTES);
  const media = detectMedia(head, path);
  if (media && media.format !== 'svg') {
    return error(
      `${path} is ${media.kind === 'image' ? 'an image' : 'a video'} (${media.format}); Read only reads text. Use ReadMediaFile to view it.`,
    );
  }
  const encoding = detectEncoding(head);
  let chunks: AsyncIterable<string> | Iterable<string>;
  const scanner = new Utf8Scanner();
  if (isUtf16(encoding)) {
    if (info.size > MAX_UTF16_BYTES) {
      return error(
        `${path} is UTF-16 encoded and ${info.size} bytes, over the ${MAX_UTF16_BYTES / (1024 * 1024)} MiB limit for transcoding. Make a UTF-8 copy with Bash (iconv -f UTF-16 -t UTF-8) and read that.`,
      );
    }
    chunks = [decodeText(await file.readFile(), encoding)];
  } else {
    if (looksBinary(head))
      return error(
        `${path} looks like a binary file (it contains NUL bytes); Read only reads text. Inspect it with Bash (file, xxd | head).`,
      );
    // Under an editor (ACP) plain UTF-8 is read from its buffer, unsaved changes included.
    const editor = encoding === 'utf8' ? ctx.services.find(EDITOR_FILES) : undefined;
    if (editor?.canRead) {
      try {
        chunks = [await editor.readText(path, ctx.signal)];
      } catch (e) {
        return error(`Cannot read ${path} through the editor: ${(e as Error).message}`);
      }
    } else chunks = utf8Chunks(file, bomLength(encoding, head), ctx.signal, scanner);
  }

  const requested = Math.min(args.n_lines ?? READ_MAX_LINES, READ_MAX_LINES);
  const window = await readLineWindow(chunks, {
    offset: args.line_offset ?? 1,
    limit: requested,
    maxBytes: READ_MAX_BYTES,
    maxLineChars: READ_MAX_LINE_CHARS,
    formatLine,
  });
  if (window.lines.length === 0) {
    const total = window.totalLines ?? 0;
    if (total === 0)
      return {
        content: `[${path} contains no lines (only ${info.size} byte(s) of line breaks or a BOM).]`,
        summary: 'Read empty file',
      };
    return {
      content: `[line_offset ${args.line_offset} is past the end of ${path}, which has ${total} lines. Use a line_offset between 1 and ${total}, or a negative one to read from the end.]`,
      summary: 'Read 0 lines',
    };
  }
  const notices = noticesFor(window, encoding, requested);
  if (scanner.invalid) notices.push(invalidUtf8Notice(scanner.invalid, bomLength(encoding, head)));
  const content = window.lines.join('\n') + (notices.length ? `\n\n${notices.join('\n')}` : '');
  return {
    content,
    summary: `Read ${window.lines.length} line${window.lines.length === 1 ? '' : 's'}`,
    display: { kind: 'file', path, lines: window.lines.length },
  };
}

async function readHeadOf(file: FileHandle, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, 0);
  return buffer.subarray(0, bytesRead);
}
