// Reads a window of lines out of a text stream without holding the whole file: forward windows stop
// as soon as they are full, tail windows (negative offsets) keep only the last |offset| lines, and
// a single enormous line is kept only up to the cut length.

export interface WindowRequest {
  /** 1-based first line, or negative: start that many lines before the end. */
  offset: number;
  /** Most lines to return. */
  limit: number;
  /** Most UTF-8 bytes of formatted output (`formatLine` results plus newlines). */
  maxBytes: number;
  /** Longer lines are cut to this many characters. */
  maxLineChars: number;
  formatLine(lineNumber: number, text: string, fullLength: number): string;
}

export interface LineWindow {
  /** Formatted output lines. */
  lines: string[];
  firstLine: number;
  lastLine: number;
  /** Known only when the whole file was scanned. */
  totalLines?: number;
  moreAfter: boolean;
  /** A tail window cut by the byte budget: lines before `firstLine` were left out. */
  moreBefore?: boolean;
  stoppedBy: 'limit' | 'bytes' | 'end';
  cutLines: number;
  crlfLines: number;
  lfLines: number;
  /** Shown lines holding a carriage return that does not end the line, and the first of them. */
  loneCrLines: number;
  firstLoneCrLine?: number;
}

interface RawLine {
  text: string;
  length: number;
  crlf: boolean;
  /** False for the last line of a file without a trailing newline. */
  terminated: boolean;
}

/** Splits a stream of text chunks into lines (`\n` or `\r\n`), each kept only up to `keepChars`. */
export async function* splitLines(
  chunks: AsyncIterable<string> | Iterable<string>,
  keepChars: number,
): AsyncGenerator<RawLine> {
  let text = '';
  let length = 0;
  let lastWasCR = false;
  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      const piece = nl === -1 ? chunk.slice(start) : chunk.slice(start, nl);
      if (piece.length) {
        if (text.length < keepChars + 1) text += piece.slice(0, keepChars + 1 - text.length);
        length += piece.length;
        lastWasCR = piece.endsWith('\r');
      }
      if (nl === -1) break;
      const crlf = lastWasCR;
      if (crlf) {
        length -= 1;
        if (text.length > length) text = text.slice(0, length);
      }
      yield { text, length, crlf, terminated: true };
      text = '';
      length = 0;
      lastWasCR = false;
      start = nl + 1;
    }
  }
  if (length > 0) yield { text, length, crlf: false, terminated: false };
}

export async function readLineWindow(
  chunks: AsyncIterable<string> | Iterable<string>,
  req: WindowRequest,
): Promise<LineWindow> {
  const out: LineWindow = {
    lines: [],
    firstLine: 0,
    lastLine: 0,
    moreAfter: false,
    stoppedBy: 'end',
    cutLines: 0,
    crlfLines: 0,
    lfLines: 0,
    loneCrLines: 0,
  };
  let bytes = 0;
  /** Adds a line to the window; false when the window is full. */
  const take = (n: number, line: RawLine): boolean => {
    if (out.lines.length >= req.limit) {
      out.stoppedBy = 'limit';
      return false;
    }
    const shown = line.text.slice(0, req.maxLineChars);
    const formatted = req.formatLine(n, shown, line.length);
    const size = Buffer.byteLength(formatted) + 1;
    if (bytes + size > req.maxBytes && out.lines.length > 0) {
      out.stoppedBy = 'bytes';
      return false;
    }
    bytes += size;
    if (line.length > req.maxLineChars) out.cutLines++;
    if (shown.includes('\r')) {
      out.loneCrLines++;
      out.firstLoneCrLine ??= n;
    }
    if (out.lines.length === 0) out.firstLine = n;
    out.lastLine = n;
    out.lines.push(formatted);
    return true;
  };
  const count = (line: RawLine): void => {
    if (line.crlf) out.crlfLines++;
    else if (line.terminated) out.lfLines++;
  };

  let n = 0;
  if (req.offset > 0) {
    for await (const line of splitLines(chunks, req.maxLineChars)) {
      n++;
      count(line);
      if (n < req.offset) continue;
      if (!take(n, line)) {
        out.moreAfter = true;
        return out;
      }
    }
    out.totalLines = n;
    return out;
  }

  // A ring of the last |offset| lines: line n lives at (n - 1) % keep.
  const keep = -req.offset;
  const ring: RawLine[] = [];
  for await (const line of splitLines(chunks, req.maxLineChars)) {
    ring[n % keep] = line;
    n++;
    count(line);
  }
  out.totalLines = n;
  // The byte budget is spent from the end backwards, so a cut drops the lines farthest from the end.
  const first = Math.max(1, n - keep + 1);
  const last = Math.min(n, first + req.limit - 1);
  const picked: number[] = [];
  let tailBytes = 0;
  for (let lineNo = last; lineNo >= first; lineNo--) {
    const line = ring[(lineNo - 1) % keep];
    const size = Buffer.byteLength(req.formatLine(lineNo, line.text.slice(0, req.maxLineChars), line.length)) + 1;
    if (tailBytes + size > req.maxBytes && picked.length > 0) {
      out.moreBefore = true;
      break;
    }
    tailBytes += size;
    picked.push(lineNo);
  }
  for (const lineNo of picked.reverse()) take(lineNo, ring[(lineNo - 1) % keep]);
  if (last < n) {
    out.moreAfter = true;
    out.stoppedBy = 'limit';
  }
  if (out.moreBefore) out.stoppedBy = 'bytes';
  return out;
}
