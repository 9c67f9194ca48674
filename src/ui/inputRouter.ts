// Where a key or a submitted line goes. Keys: an open panel (approval, dialog, popup) takes everything
// but the expand toggle; otherwise global keys (Ctrl-C/D, Esc and Esc-Esc, steer, mode cycling…) act,
// and the rest edit the input box. Lines: `!cmd` runs in the shell, `/cmd` is a slash command (idle-only
// ones are refused while the agent works), anything else is a prompt.
import type { Component, Editor } from '@mariozechner/pi-tui';
import type { PermissionMode } from '../engine/session/records';
import { appendUserHistory } from '../store/userHistory';
import { actionOf, nextCycleStop, normalizeKey } from './keymap';
import { findCommand, parseSlash, SLASH_COMMANDS, type CommandHost } from './slashCommands';
import { knownSlashNames, unknownSlashName } from '../engine/delegation/slashNames';
import { parseSkillCommand } from '../engine/delegation/skills';
import type { SessionPlugins } from '../ext/plugins/contributions';
import { parsePluginCommand } from '../ext/plugins/pluginCommands';
import type { ParsedCommand } from '../engine/delegation/commandExpansion';
import type { McpManager } from '../ext/mcp/mcpManager';
import { namesMcpServer, runMcpPromptCommand } from '../ext/mcp/mcpPrompts';
import { parseFlowCommand } from '../engine/delegation/flowRunner';
import type { SkillFlow } from '../ext/skills/skillFlow';

/** Two Esc presses within this window on an empty, idle input open the undo selector. */
export const DOUBLE_ESC_MS = 600;

/** What is running now; the app's own getters, read live. */
export interface WorkState {
  readonly busy: boolean;
  readonly compacting: boolean;
  readonly shellRunning: boolean;
}

export interface InputHost {
  readonly editor: Editor;
  readonly home: string;
  readonly cwd: string;
  /** The panel in the input box's place (a question of the engine, or a popup). */
  readonly panel: Component | undefined;
  /** What is running now (the agent, a compaction, a shell command). */
  readonly work: WorkState;
  mode: PermissionMode;
  planMode: boolean;
  /** The slash commands' view of the app. */
  readonly commands: CommandHost;
  requestRender(): void;
  exit(code: number): void;
  interrupt(): void;
  undo(): void;
  toggleExpand(): void;
  toggleTodos(): void;
  /** Full-screen mode scrolls the conversation by a page (1 up, -1 down); false (or absent) when not in it. */
  scrollTranscript?(pages: number): boolean;
  openExternalEditor(): void;
  /** Sends `text` into the running turn (Ctrl-S). */
  steer(text: string): void;
  /** The session's skills: `/skill:<name>` and `/<name>` send a skill's instructions (docs/skills-and-agents.md). */
  readonly skills: Parameters<typeof parseSkillCommand>[1];
  /** Enabled plugins' commands (`/<plugin>:<command>`). */
  readonly plugins?: SessionPlugins;
  /** The session's MCP servers (their prompts are `/mcp__<server>__<prompt>`). */
  readonly mcp?: McpManager;
  /** `modelText`: what the model receives when it differs from what the user typed (a skill's instructions). */
  /** `command`: the plugin or skill command behind it (its `!`cmd` lines run before sending). */
  sendPrompt(text: string, modelText?: string, command?: ParsedCommand): void;
  runShell(command: string): void;
  /** `/flow:<name>`: runs a flow skill's steps (engine/delegation/flowRunner.ts). */
  runFlow(name: string, flow: SkillFlow): void;
  /** After a line is sent: @-completion may list new files. */
  refreshCompletion(): void;
  /** Ctrl-V: an image from the clipboard (its text otherwise). */
  pasteImage(): void;
  /** A bracketed paste that is the path of an image: the placeholder to insert instead, else undefined. */
  pastedImage(text: string): string | undefined;
}

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export class InputRouter {
  /** The footer's hint line (e.g. "Press Ctrl-C again to exit"). */
  hint: string | undefined;
  private exitArmed = false;
  private lastEscapeAt = 0;

  constructor(private readonly host: InputHost) {}

  onInput(raw: string): void {
    const { host } = this;
    const data = normalizeKey(raw);
    if (data === undefined) return;
    const action = actionOf(data);
    if (action !== 'ctrlC' && action !== 'ctrlD' && this.exitArmed) {
      this.exitArmed = false;
      this.hint = undefined;
    }
    const panel = host.panel;
    if (panel) {
      if (action === 'toggleExpand') host.toggleExpand();
      else panel.handleInput?.(data);
      host.requestRender();
      return;
    }
    const menuOpen = host.editor.isShowingAutocomplete();
    switch (action) {
      case 'ctrlC':
        if (menuOpen) break;
        this.onCtrlC();
        return host.requestRender();
      case 'ctrlD':
        if (!host.editor.getText()) return host.exit(0);
        break;
      case 'escape':
      case 'doubleEscape': {
        if (menuOpen) break;
        this.onEscape(action === 'doubleEscape');
        return host.requestRender();
      }
      case 'steer':
        this.steer();
        return host.requestRender();
      case 'toggleExpand':
        return host.toggleExpand();
      case 'externalEditor':
        return host.openExternalEditor();
      case 'cycleMode': {
        const next = nextCycleStop(host.mode, host.planMode);
        if (next.mode !== host.mode) host.mode = next.mode;
        if (next.plan !== host.planMode) host.planMode = next.plan;
        return host.requestRender();
      }
      case 'toggleTodos':
        host.toggleTodos();
        return host.requestRender();
      case 'pasteImage':
        return host.pasteImage();
      case 'pageUp':
      case 'pageDown':
        if (host.scrollTranscript?.(action === 'pageUp' ? 1 : -1)) return;
        break;
    }
    if (data.startsWith(PASTE_START) && data.endsWith(PASTE_END)) {
      const placeholder = host.pastedImage(data.slice(PASTE_START.length, -PASTE_END.length));
      if (placeholder !== undefined) {
        host.editor.insertTextAtCursor(placeholder);
        return host.requestRender();
      }
    }
    host.editor.handleInput(data);
    host.requestRender();
  }

  /** Esc interrupts work; on an empty idle input, a second Esc opens the undo selector. */
  private onEscape(double: boolean): void {
    const { host } = this;
    const text = host.editor.getText();
    if (host.work.busy || host.work.shellRunning || host.work.compacting) host.interrupt();
    else if (text.startsWith('!') && text.length <= 1) host.editor.setText('');
    else if (!text) {
      const now = Date.now();
      if (double || now - this.lastEscapeAt <= DOUBLE_ESC_MS) {
        this.lastEscapeAt = 0;
        host.undo();
      } else this.lastEscapeAt = now;
    }
  }

  private onCtrlC(): void {
    const { host } = this;
    if (host.work.busy || host.work.shellRunning) return host.interrupt();
    if (host.editor.getText()) {
      host.editor.setText('');
      return;
    }
    if (this.exitArmed) return host.exit(0);
    this.exitArmed = true;
    this.hint = 'Press Ctrl-C again to exit (Ctrl-D also exits)';
  }

  private steer(): void {
    const { host } = this;
    const text = host.editor.getText().trim();
    if (!text) return;
    if (!host.work.busy) return void this.submit(text);
    host.editor.setText('');
    this.remember(text);
    host.steer(text);
  }

  /** The input box's Enter. */
  async submit(raw: string): Promise<void> {
    const { host } = this;
    const text = raw.replace(/\s+$/, '');
    if (!text.trim()) return;
    host.editor.setText('');
    this.remember(text);
    host.refreshCompletion();
    if (text.startsWith('!')) return host.runShell(text.slice(1).trim());
    const slash = text.startsWith('/') ? parseSlash(text) : undefined;
    if (slash) {
      const commands = host.commands;
      if (slash.command.idleOnly && (host.work.busy || host.work.compacting)) {
        commands.notice(
          'warning',
          `/${slash.command.name} is not available while the agent ${host.work.compacting ? 'compacts the conversation' : 'works'}.`,
          'Press Esc to interrupt first.',
        );
        return;
      }
      try {
        await slash.command.run(commands, slash.args);
      } catch (e) {
        commands.notice('error', `/${slash.command.name} failed: ${(e as Error).message}`);
      }
      return host.requestRender();
    }
    // `/<plugin>:<command> [args]` sends the plugin command's prompt (docs/plugins.md).
    const plugin =
      text.startsWith('/') && host.plugins
        ? parsePluginCommand(text, host.plugins.commands, host.plugins.ids)
        : undefined;
    const skill =
      text.startsWith('/') && !plugin
        ? parseSkillCommand(text, host.skills, (name) => findCommand(name) !== undefined)
        : undefined;
    const flow = text.startsWith('/') && !plugin ? parseFlowCommand(text, host.skills) : undefined;
    if (flow && !flow.ok) return this.refuse(text, flow.message);
    if (flow) return host.runFlow(flow.skill.name, flow.flow);
    const command = plugin ?? skill;
    // A command that cannot run, or a `/name` nothing has: said, nothing sent, the input kept to fix.
    if (command && !command.ok) return this.refuse(text, command.message);
    // `/mcp__<server>__<prompt> args`: the server's prompt (ext/mcp/mcpPrompts.ts).
    const servers = host.mcp?.connectionsInUse().map((c) => c.config.name) ?? [];
    if (!command && namesMcpServer(text, servers)) {
      const mcpPrompt = await runMcpPromptCommand(text, host.mcp);
      if (mcpPrompt?.ok) return host.sendPrompt(text, mcpPrompt.text);
      if (mcpPrompt) return this.refuse(text, mcpPrompt.message);
    }
    const unknown = command ? undefined : this.unknownName(text);
    if (unknown) return this.refuse(text, unknown);
    host.sendPrompt(text, command?.text, command);
  }

  private refuse(text: string, message: string): void {
    this.host.editor.setText(text);
    this.host.commands.notice('error', message);
    this.host.requestRender();
  }

  /** The message for a `/name` that names no command, skill or plugin command (engine/delegation/slashNames.ts). */
  private unknownName(text: string): string | undefined {
    const { host } = this;
    const frontEnd = SLASH_COMMANDS.flatMap((c) => [c.name, ...c.aliases]);
    const known = knownSlashNames({ frontEnd, skills: host.skills, plugins: host.plugins });
    return unknownSlashName(text, known, 'Type / to see the commands and skills.')?.message;
  }

  private remember(text: string): void {
    this.host.editor.addToHistory(text);
    try {
      appendUserHistory(this.host.home, this.host.cwd, text);
    } catch {
      // history is a convenience: a read-only home must not block sending
    }
  }
}
