// Ctrl-G: edit the prompt in an external editor (tui.toml [editor] command → $VISUAL → $EDITOR).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Editor, Terminal } from '@mariozechner/pi-tui';
import type { Screen } from './screen';

export function editorCommand(configured: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return configured.trim() || env.VISUAL?.trim() || env.EDITOR?.trim() || undefined;
}

/**
 * Runs the editor on a temporary file holding `text` (the terminal must be handed over first).
 * Returns the new text, or undefined when the editor failed or the file was left unchanged.
 */
export function editText(command: string, text: string): { text?: string; error?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-edit-'));
  const file = join(dir, 'prompt.md');
  try {
    writeFileSync(file, text);
    // The command may carry arguments ("code --wait"), so it runs through the shell with the file as $1.
    const result = spawnSync(process.env.SHELL || 'sh', ['-c', `${command} "$1"`, 'jarvis-editor', file], {
      stdio: 'inherit',
    });
    if (result.error) return { error: `could not start "${command}": ${result.error.message}` };
    if (result.status !== 0) return { error: `"${command}" exited with status ${result.status}; the input was kept` };
    const edited = readFileSync(file, 'utf8').replace(/\n$/, '');
    return edited === text ? {} : { text: edited };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What Ctrl-G hands over to the editor and takes back. */
export interface InputBoxTerminal {
  readonly screen: Screen;
  readonly terminal: Terminal;
  readonly editor: Editor;
  /** Takes the terminal back: keys reach the app again. */
  listen(): void;
  notice(level: 'error', text: string): void;
}

/** Edits the input box's text with `command`; the input box keeps its text when the editor fails. */
export function editInputBox(command: string, ui: InputBoxTerminal): void {
  // The editor takes the whole terminal (often its alternate screen): full-screen mode steps aside.
  const fullScreen = ui.screen.fullScreen;
  ui.screen.setFullScreen(false);
  // The live region is erased and drawn again after the editor, below whatever it left (docs/ui.md "Scrollback").
  ui.screen.releaseLive();
  ui.terminal.stop();
  const result = editText(command, ui.editor.getExpandedText());
  ui.listen();
  ui.screen.setFullScreen(fullScreen);
  if (result.text !== undefined) ui.editor.setText(result.text);
  if (result.error) ui.notice('error', result.error);
  ui.screen.requestRender();
}
