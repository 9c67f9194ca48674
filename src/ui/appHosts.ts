// The hosts the app hands to its input router and to its conversation actions (/compact, /undo, /rewind),
// and the slash-command menu. app.ts builds the parts; these functions only connect them.
import type { EngineEvent } from '../engine/loop/events';
import { commandListDescription } from '../ext/plugins/pluginCommands';
import type { SessionControl } from '../engine/runtime/sessionControl';
import type { PermissionMode } from '../engine/session/records';
import type { App } from './app';
import type { AppOptions } from './appOptions';
import type { CommandInfo, InputCompletion } from './completion';
import type { ContextActionsHost } from './contextActions';
import type { ConversationFeed } from './conversationFeed';
import { editorCommand } from './externalEditor';
import type { FooterState } from './footer';
import type { InputHost } from './inputRouter';
import { PromptAttacher } from './promptAttacher';
import { PromptSender } from './promptSender';
import type { RemoteControlHost } from './remote/remoteControl';
import { ShellModeRunner } from './shellModeRunner';
import { panelApprovalPort, panelInteractionPort } from './questionPanels';
import type { EnginePorts, SessionLifecycleHost } from './sessionLifecycle';
import { findCommand, SLASH_COMMANDS } from './slashCommands';
import type { TerminalView } from './terminalView';
import type { Block } from './transcript/block';
import { LinesBlock, UserBlock, type NoticeLevel } from './transcript/messageBlocks';
import { blocksFromMessages } from './transcript/replay';

/** Read live: some parts are made after the hosts that use them. */
export interface AppParts {
  readonly ui: TerminalView;
  readonly controller: SessionControl;
  readonly opts: AppOptions;
  banner(): Block;
  readonly feed: ConversationFeed;
  readonly prompts: PromptSender;
  readonly shell: ShellModeRunner;
  readonly attacher: PromptAttacher;
  readonly completion: InputCompletion;
}

/** The built-in commands, then the skills' and the enabled plugins' (read on every menu: /reload may change them). */
export function commandMenu(opts: AppOptions): CommandInfo[] {
  const skills = (opts.runtime.skills?.all ?? []).map((s) => ({
    name: `skill:${s.name}`,
    aliases: findCommand(s.name) ? [] : [s.name],
    description: s.description,
  }));
  const plugins = (opts.runtime.plugins?.commands ?? []).map((c) => ({
    name: c.name,
    aliases: [],
    description: commandListDescription(c),
  }));
  return [...SLASH_COMMANDS, ...skills, ...plugins];
}

export function inputRouterHost(app: App, parts: AppParts): InputHost {
  const { ui } = parts;
  return {
    editor: ui.editor,
    home: app.home,
    cwd: app.cwd,
    get skills() {
      return parts.opts.runtime.skills;
    },
    get plugins() {
      return parts.opts.runtime.plugins;
    },
    get mcp() {
      return app.mcp;
    },
    get panel() {
      return ui.panels.current(app.busy);
    },
    work: app,
    get mode() {
      return app.mode;
    },
    set mode(mode: PermissionMode) {
      app.mode = mode;
    },
    get planMode() {
      return app.planMode;
    },
    set planMode(on: boolean) {
      app.planMode = on;
    },
    commands: app,
    requestRender: () => app.requestRender(),
    exit: (code) => app.exit(code),
    interrupt: () => app.interrupt(),
    undo: () => app.undo(),
    toggleExpand: () => ui.toggleExpand(),
    toggleTodos: () => ui.toggleTodos(),
    scrollTranscript: (pages) => ui.scrollPages(pages),
    openExternalEditor: () => app.openExternalEditor(),
    steer: (text) => {
      parts.controller.runtime!.agent.submit({ kind: 'steer', text });
      ui.transcript.add(new UserBlock(ui.view, text, 'steer'));
    },
    sendPrompt: (text, modelText, command) => parts.prompts.send(text, modelText, command),
    runShell: (command) => parts.shell.start(command),
    runFlow: (name, flow) => parts.prompts.runFlow(name, flow),
    refreshCompletion: () => parts.completion.refresh(),
    pasteImage: () => void parts.prompts.pasteImage(),
    pastedImage: (text) => parts.attacher.pasteText(text),
  };
}

export function contextActionsHost(app: App, parts: AppParts): ContextActionsHost {
  const { ui } = parts;
  return {
    get runtime() {
      return parts.controller.runtime;
    },
    work: app,
    notice: (level, text, hint) => app.notice(level, text, hint),
    pick: (title, items, onPick, body) => app.pick(title, items, onPick, body),
    popup: (title, lines) => app.popup(title, lines),
    startActivity: (label) => ui.activity.start(label),
    stopActivity: () => ui.activity.stop(),
    refreshContext: () => app.refreshContext(),
    requestRender: () => app.requestRender(),
    rewindTranscript: (block) => {
      const { transcript, view } = ui;
      const at = block ? transcript.committed.indexOf(block) : -1;
      const rt = parts.controller.runtime!;
      if (at >= 0) transcript.truncate(at);
      else
        transcript.reset([
          parts.banner(),
          ...blocksFromMessages(rt.session.state.messages, view, rt.session.state.compactions),
        ]);
    },
    restoreInput: (text) => ui.editor.setText(text),
    planRestored: (active) => {
      parts.feed.planShown = active;
      ui.screen.transcriptChanged();
    },
  };
}

/** The footer's state from the app (terminalView.ts adds the shell mode and tui.toml's items). */
export function footerStatus(
  app: App,
  controller: SessionControl,
  extra: { branch: string | undefined; hint: string | undefined },
): Omit<FooterState, 'shell' | 'items' | 'custom'> {
  const rt = controller.runtime;
  const goal = rt?.session.state.goal;
  const usage = rt?.session.state.usage;
  return {
    mode: app.mode,
    plan: controller.planMode,
    swarm: controller.swarmMode,
    model: app.modelLabel,
    contextTokens: app.contextTokens,
    contextLimit: app.contextLimit,
    cwd: app.cwd,
    branch: extra.branch,
    hint: extra.hint,
    busy: app.busy,
    compacting: app.compacting,
    goal: goal ? { status: goal.status, turns: goal.used.turns } : undefined,
    tokens: usage ? { input: usage.inputTokens, output: usage.outputTokens } : undefined,
    tasks: rt?.tasks.runningCount(),
  };
}

/** `@path` attachments, `!` commands and the prompt sender, which the input router and the feed share. */
export function promptParts(
  app: App,
  p: { ui: TerminalView; controller: SessionControl; completion: InputCompletion; opts: () => AppOptions },
): { attacher: PromptAttacher; shell: ShellModeRunner; prompts: PromptSender } {
  const { view, transcript, editor, activity } = p.ui;
  const notice = (level: NoticeLevel, text: string, hint?: string) => app.notice(level, text, hint);
  const requestRender = () => app.requestRender();
  const ensureRuntime = () => app.ensureRuntime();
  const attacher = new PromptAttacher({
    cwd: app.cwd,
    get rules() {
      return p.opts().runtime.rules;
    },
    imageInput: () => p.controller.model.capabilities.includes('image_in'),
    get modelLabel() {
      return app.modelLabel;
    },
    notice,
    requestRender,
  });
  const shell = new ShellModeRunner({
    cwd: app.cwd,
    view,
    transcript,
    ensureRuntime,
    notice,
    startActivity: (label) => activity.start(label),
    ended: () => {
      if (!app.busy) activity.stop();
      app.requestRender();
    },
    requestRender,
  });
  const prompts = new PromptSender({
    editor,
    shell,
    attacher,
    completion: p.completion,
    ensureRuntime,
    notice,
    requestRender,
  });
  return { attacher, shell, prompts };
}

/** Ctrl-G: edits the input in the configured editor; the editor's result comes back as input. */
export function openExternalEditor(
  app: App,
  ui: TerminalView,
  env: NodeJS.ProcessEnv,
  onInput: (data: string) => void,
): void {
  const command = editorCommand(app.preferences.editorCommand, env);
  if (!command) {
    app.notice(
      'warning',
      'No external editor is configured.',
      'Set $VISUAL or $EDITOR, or [editor] command in tui.toml.',
    );
    return;
  }
  ui.editExternally(command, onInput);
}

/** What the engine asks (approvals, questions) waits in the panel slot; its events go to `onEvent`. */
export function enginePorts(ui: TerminalView, cwd: string, onEvent: (e: EngineEvent) => void): EnginePorts {
  const panelEnv = { theme: () => ui.view.theme, cwd, rows: () => ui.terminal.rows };
  return {
    approvalPort: panelApprovalPort(ui.panels.questions, panelEnv),
    interactionPort: panelInteractionPort(ui.panels.questions, panelEnv),
    onEvent,
  };
}

/** What `/remote` reaches of the app (docs/remote.md): a web client's prompt is sent as if typed here. */
export function remoteHost(app: App, parts: AppParts): RemoteControlHost {
  const { ui, prompts, controller } = parts;
  return {
    cwd: app.cwd,
    get env() {
      return app.pluginSettings.env;
    },
    get mcp() {
      return app.mcp;
    },
    ensureRuntime: () => app.ensureRuntime(),
    get base() {
      return parts.opts.runtime;
    },
    send: (text, prepared) => (prepared ? prompts.sendPrepared(text, prepared) : prompts.send(text)),
    interrupt: () => app.interrupt(),
    setMode: (mode, plan) => {
      app.mode = mode;
      app.planMode = plan;
    },
    // A web client's model switch: as /model; throws with a message for the client.
    switchModel: (alias) => {
      controller.switchModel(alias);
      app.refreshContext();
      app.requestRender();
      return controller.model.model;
    },
    models: () => controller.modelChoices(),
    notice: (level, text, hint) => app.notice(level, text, hint),
    showLines: (lines) => ui.transcript.add(new LinesBlock(ui.view, () => lines)),
  };
}

/** The session lifecycle's view of the app; /reload also rereads tui.toml. */
export function lifecycleHost(
  app: App,
  ui: TerminalView,
  on: { sessionChanged(): void; reloaded(): void },
): SessionLifecycleHost {
  return {
    view: ui.view,
    transcript: ui.transcript,
    panels: ui.panels,
    get modelLabel() {
      return app.modelLabel;
    },
    notice: (level, text, hint) => app.notice(level, text, hint),
    refreshContext: () => app.refreshContext(),
    sessionChanged: () => on.sessionChanged(),
    reloaded: () => {
      app.preferences.reload();
      on.reloaded();
    },
  };
}
