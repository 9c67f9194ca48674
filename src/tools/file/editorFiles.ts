// The editor's view of files, when a front end has one (ACP: the editor's open buffers, docs/acp.md).
// Read, Write and Edit go through it for plain UTF-8 text, so an edit lands in the buffer the user sees
// (with its undo history) and a read sees unsaved changes; everything else still uses the disk.
import { serviceKey } from '../defineTool';

export interface EditorFiles {
  /** The editor answers reads (`fs/read_text_file`). */
  readonly canRead: boolean;
  /** The editor takes writes (`fs/write_text_file`). */
  readonly canWrite: boolean;
  /** The file's text as the editor has it (an open buffer's unsaved text included). */
  readText(path: string, signal: AbortSignal): Promise<string>;
  /** Replaces the file's text in the editor, which saves it. */
  writeText(path: string, text: string, signal: AbortSignal): Promise<void>;
}

export const EDITOR_FILES = serviceKey<EditorFiles>()('editorFiles');
