// Where documents are read and written. Relative paths resolve against the session's folder, which
// Jarvis passes to plugin servers as JARVIS_PROJECT_DIR (the server itself runs in the plugin root);
// without it, against the server's working directory. Writes go to a temporary file renamed over the
// target, so a failed edit never leaves a half-written document behind.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';

export type DocumentFormat = 'pdf' | 'xlsx' | 'docx' | 'pptx';

const FORMATS: Record<string, DocumentFormat> = { '.pdf': 'pdf', '.xlsx': 'xlsx', '.docx': 'docx', '.pptx': 'pptx' };

export function resolveDocumentPath(path: string, cwd = process.env.JARVIS_PROJECT_DIR || process.cwd()): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

export function formatOf(path: string): DocumentFormat {
  const format = FORMATS[extname(path).toLowerCase()];
  if (!format)
    throw new Error(
      `${path}: unsupported file type "${extname(path) || '(none)'}"; use a .pdf, .xlsx, .docx or .pptx file.`,
    );
  return format;
}

export function expectFormat(path: string, expected: DocumentFormat): void {
  const format = formatOf(path);
  if (format !== expected) throw new Error(`${path} is a .${format} file; this tool works on .${expected} files.`);
}

export function readDocument(path: string): Buffer {
  if (!existsSync(path)) throw new Error(`${path} does not exist. Check the path, or create the file first.`);
  if (!statSync(path).isFile()) throw new Error(`${path} is not a file.`);
  return readFileSync(path);
}

/** Refuses to replace an existing file unless asked, so a create never silently destroys work. */
export function checkCreateTarget(path: string, overwrite: boolean | undefined): void {
  if (!overwrite && existsSync(path)) {
    throw new Error(
      `${path} already exists. Edit it with the matching edit tool, or pass overwrite: true to replace it.`,
    );
  }
}

export function writeDocument(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw new Error(`Could not write ${path}: ${(e as Error).message}`);
  }
}

/** The file an edit reads and the file it writes (`output`, else the same file), both of the format. */
export function editTargets(
  args: { path: string; output?: string },
  format: DocumentFormat,
): { path: string; output: string } {
  const path = resolveDocumentPath(args.path);
  expectFormat(path, format);
  const output = args.output ? resolveDocumentPath(args.output) : path;
  expectFormat(output, format);
  return { path, output };
}

/**
 * Applies an edit's operations in order. The first one that fails stops the edit with its step named;
 * the caller writes only after all succeeded, so a failed edit leaves the file as it was.
 */
export async function applyOperations<O extends { op: string }>(
  operations: readonly O[],
  apply: (op: O) => Promise<void>,
): Promise<void> {
  for (const [i, op] of operations.entries()) {
    try {
      await apply(op);
    } catch (e) {
      throw new Error(`operation ${i + 1} (${op.op}) failed: ${(e as Error).message} Nothing was written.`);
    }
  }
}
