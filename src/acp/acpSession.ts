// One editor session: a SessionControl (the engine's runtime for it), the MCP servers of config and
// editor, the queue of questions forwarded as permission requests, and the mapping of engine events to
// `session/update`s (docs/acp.md). Updates are sent in order; a prompt's answer waits until they are out.
import {
  RequestError,
  type AgentContext,
  type ClientCapabilities,
  type ContentBlock,
  type McpServer,
  type PromptResponse,
  type SessionConfigOption,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { CompactionError } from '../engine/context/compaction';
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import type { ThinkingSettings } from '../engine/loop/loop';
import type { PermissionMode, TurnEndReason } from '../engine/session/records';
import { QuestionQueue } from '../engine/runtime/questionQueue';
import type { Runtime } from '../engine/runtime/runtime';
import { SessionControl, type BaseRuntimeOptions } from '../engine/runtime/sessionControl';
import type { McpManager } from '../ext/mcp/mcpManager';
import { mcpToolDeferral } from '../engine/loop/deferredTools';
import type { JarvisConfig } from '../store/config';
import type { McpServerConfig, McpTimeoutDefaults } from '../store/mcpConfig';
import type { SessionLocation } from '../store/sessionStore';
import { EDITOR_FILES } from '../tools/file/editorFiles';
import type { AcpLog } from './acpLog';
import { editorFileAccess } from './editorFileAccess';
import { editorMcpServers, joinMcpServers } from './mcpServers';
import type { AcpMcpPool, McpLease } from './mcpPool';
import {
  acpApprovalPort,
  acpInteractionPort,
  startDue,
  type PendingPermission,
  type PermissionRequester,
} from './permissions';
import { promptInput } from './promptContent';
import { EventMapper, historyUpdates } from './sessionUpdates';
import { applyThinking, configOptions, currentModeId, MODE_IDS, modeState, type AcpModeId } from './sessionOptions';
import { ACP_COMMAND_NAMES, runSlashCommand, type ListedCommand } from './slashCommands';
import { parsePluginCommand } from '../ext/plugins/pluginCommands';
import { parseSkillCommand } from '../engine/delegation/skills';
import { parseFlowCommand, runFlow } from '../engine/delegation/flowRunner';
import { listMcpPrompts, mcpPromptHint, runMcpPromptCommand } from '../ext/mcp/mcpPrompts';
import { prepareParsedCommand } from '../engine/delegation/commandExpansion';
import { knownSlashNames, unknownSlashName } from '../engine/delegation/slashNames';
import type { SessionPlugins } from '../ext/plugins/contributions';

/** What the CLI layer prepared for a session in one folder (config, model, servers). */
export interface PreparedSession {
  runtime: BaseRuntimeOptions;
  models: { config: JarvisConfig; configPath: string; env: NodeJS.ProcessEnv };
  mcpServers: McpServerConfig[];
  mcpDefaults: McpTimeoutDefaults;
  /** The identity slug, announced to MCP servers. */
  clientName: string;
  warnings: string[];
}

export interface AcpSessionOptions {
  prepared: PreparedSession;
  client: AgentContext;
  clientCapabilities: ClientCapabilities;
  /** The MCP servers the editor sent with the request. */
  editorMcp: readonly McpServer[];
  resume?: SessionLocation;
  version: string;
  log: AcpLog;
  /** The connection's MCP servers, shared by sessions with the same servers. */
  mcpPool: AcpMcpPool;
}

/** A turn the editor did not cancel but that stopped early (the user rejected a call) simply ended. */
function stopReason(reason: Exclude<TurnEndReason, 'failed'>, cancelRequested: boolean): StopReason {
  if (reason === 'max_steps') return 'max_turn_requests';
  if ((reason === 'cancelled' || reason === 'interrupted') && cancelRequested) return 'cancelled';
  return 'end_turn';
}

export class AcpSession {
  readonly runtime: Runtime;
  private readonly control: SessionControl;
  private readonly queue: QuestionQueue<PendingPermission>;
  private readonly mapper: EventMapper;
  private readonly mcp: McpManager | undefined;
  private readonly mcpLease: McpLease;
  /** Read by the agent at each request, so the `thinking` option applies from the next one. */
  private readonly thinking: ThinkingSettings;
  /** Enabled plugins' commands (advertised to the editor, expanded in prompts). */
  readonly plugins: SessionPlugins | undefined;
  private updates: Promise<void> = Promise.resolve();
  private readonly cwd: string;
  /** `session/cancel` came during the current prompt. */
  private cancelRequested = false;
  /** Aborted by `session/cancel` while a command's `!`cmd` lines run, before its prompt is sent. */
  private expanding: AbortController | undefined;

  constructor(private readonly opts: AcpSessionOptions) {
    const { prepared } = opts;
    this.cwd = prepared.runtime.cwd;
    this.mapper = new EventMapper(this.cwd);
    const fromEditor = editorMcpServers(opts.editorMcp, prepared.mcpDefaults);
    for (const w of [...prepared.warnings, ...fromEditor.warnings]) opts.log(w);
    this.mcpLease = opts.mcpPool.acquire(
      joinMcpServers(prepared.mcpServers, fromEditor.servers),
      {
        home: prepared.runtime.home,
        clientName: prepared.clientName,
        version: opts.version,
        deferred: mcpToolDeferral(prepared.runtime.deferral),
        cwd: this.cwd,
      },
      (text) => this.warn(text),
    );
    this.mcp = this.mcpLease.manager;
    this.thinking = { ...(prepared.runtime.thinking ?? { enabled: true }) };
    this.plugins = prepared.runtime.plugins;
    this.queue = new QuestionQueue<PendingPermission>((queue) =>
      startDue(queue, this.control.runtime?.agent.busy ?? false),
    );
    const requestPermission: PermissionRequester = async (toolCall, options, signal) => {
      await this.updates; // the editor knows the tool call before it is asked about it
      const response = await opts.client.request(
        'session/request_permission',
        { sessionId: this.id, toolCall, options },
        { cancellationSignal: signal },
      );
      return response.outcome.outcome === 'selected' ? response.outcome.optionId : undefined;
    };
    const editorFiles = editorFileAccess(opts.client, opts.clientCapabilities, () => this.id);
    this.control = new SessionControl({
      base: {
        ...prepared.runtime,
        resume: opts.resume,
        mcp: this.mcp,
        thinking: this.thinking,
        services: editorFiles ? [[EDITOR_FILES.name, editorFiles]] : [],
      },
      models: prepared.models,
      nonInteractive: false,
      notificationDelivery: 'agent',
      approvalPort: acpApprovalPort(this.queue, requestPermission, this.cwd),
      interactionPort: acpInteractionPort(this.queue, requestPermission),
      onEvent: (event) => this.onEvent(event),
    });
    try {
      this.runtime = this.control.ensure();
    } catch (e) {
      void this.mcpLease.release();
      throw e;
    }
    for (const w of this.runtime.warnings) opts.log(w);
  }

  get id(): string {
    return this.runtime.session.id;
  }

  private send(update: SessionUpdate): void {
    this.updates = this.updates
      .then(() => this.opts.client.notify('session/update', { sessionId: this.id, update }))
      .catch((e: unknown) =>
        this.opts.log(`could not send a session update: ${e instanceof Error ? e.message : String(e)}`),
      );
  }

  /** Something the user must see, in the conversation and in the log. */
  warn(text: string): void {
    this.opts.log(text);
    this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\nWarning: ${text}\n\n` } });
  }

  private say(text: string): void {
    this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  private onEvent(event: EngineEvent): void {
    for (const update of this.mapper.map(event)) this.send(update);
    if (event.agentId !== MAIN_AGENT_ID) return;
    if (event.type === 'plan_mode' || event.type === 'mode') this.announceMode();
    // A background question waits until the agent is idle.
    if (event.type === 'turn_end') startDue(this.queue, false);
  }

  private announceMode(): void {
    this.send({ sessionUpdate: 'current_mode_update', currentModeId: currentModeId(this.control) });
    this.send({ sessionUpdate: 'config_option_update', configOptions: this.configOptions() });
  }

  modes() {
    return modeState(this.control);
  }

  configOptions(): SessionConfigOption[] {
    return configOptions({
      mode: this.control.mode,
      planMode: this.control.planMode,
      model: this.control.model,
      modelAliases: this.control.modelAliases,
      thinking: this.thinking,
    });
  }

  /** Sends what an editor shows for an earlier session: its conversation, then its plan. */
  async replayHistory(): Promise<void> {
    const { state } = this.runtime.session;
    for (const update of historyUpdates(state.messages, state.todos, this.cwd)) this.send(update);
    await this.updates;
  }

  /** Tells the editor which slash commands this session takes (after the session exists for it). */
  advertiseCommands(commands: SessionUpdate): void {
    this.send(commands);
  }

  /** The MCP servers' prompts, once the servers have started (listed to the editor as `/mcp__<server>__<prompt>`). */
  async mcpPromptCommands(): Promise<ListedCommand[]> {
    if (!this.mcp) return [];
    await this.mcp.ready();
    const { prompts, problems } = await listMcpPrompts(this.mcp);
    for (const p of problems) this.warn(p);
    return prompts.map((p) => ({ name: p.name, description: p.description, hint: mcpPromptHint(p) }));
  }

  /** The session's skills (they are listed to the editor as `/skill:<name>`). */
  get skills() {
    return this.opts.prepared.runtime.skills;
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    const input = promptInput(blocks);
    for (const w of input.warnings) this.warn(w);
    const ran = await runSlashCommand(input.text, {
      compact: (instruction) => this.runtime.compaction.compact({ instruction }),
      togglePlan: () => (this.control.planMode = !this.control.planMode),
    }).catch((e: unknown) => {
      if (e instanceof CompactionError) return e.message;
      throw e;
    });
    if (ran !== undefined) {
      this.say(ran);
      await this.updates;
      return { stopReason: 'end_turn' };
    }
    // `/<plugin>:<command> [args]` (and other agents' commands): the command's prompt goes to the model (docs/plugins.md).
    const plugin = this.plugins ? parsePluginCommand(input.text, this.plugins.commands, this.plugins.ids) : undefined;
    if (plugin && !plugin.ok) return this.refuse(plugin.message);
    // `/skill:<name> [text]` (or `/<name>`): the skill's instructions are the prompt (docs/skills-and-agents.md).
    const skill = plugin
      ? undefined
      : parseSkillCommand(input.text, this.opts.prepared.runtime.skills, (name) => ACP_COMMAND_NAMES.includes(name));
    if (skill && !skill.ok) return this.refuse(skill.message);
    // `/flow:<name>`: a flow skill's steps, one turn each (engine/delegation/flowRunner.ts).
    const flow = plugin || skill ? undefined : parseFlowCommand(input.text, this.opts.prepared.runtime.skills);
    if (flow && !flow.ok) return this.refuse(flow.message);
    if (flow) {
      this.cancelRequested = false;
      const result = await runFlow(this.runtime.agent, flow.skill.name, flow.flow);
      await this.updates;
      this.say(result.message);
      await this.updates;
      return { stopReason: this.cancelRequested ? 'cancelled' : 'end_turn' };
    }
    // `/mcp__<server>__<prompt> args`: the server's prompt, its arguments mapped (ext/mcp/mcpPrompts.ts).
    const mcpPrompt = plugin || skill ? undefined : await runMcpPromptCommand(input.text, this.mcp);
    if (mcpPrompt && !mcpPrompt.ok) return this.refuse(mcpPrompt.message);
    const command = plugin ?? skill;
    // A `/name` that names nothing of this session is refused as the UI and print mode refuse it.
    const hint = 'The editor lists the commands this agent offers.';
    const unknown = command || mcpPrompt ? undefined : unknownSlashName(input.text, this.slashNames(), hint);
    if (unknown) return this.refuse(unknown.message);
    this.cancelRequested = false;
    // Its `!`cmd` lines run first, through the editor's permission requests (engine/delegation/commandExpansion.ts).
    const warn = (text: string) => this.say(`warning: ${text}`);
    const expanding = new AbortController();
    this.expanding = expanding;
    const ready = command
      ? await prepareParsedCommand(this.runtime.agent, command, { warn, signal: expanding.signal }).finally(() => {
          this.expanding = undefined;
        })
      : undefined;
    if (expanding.signal.aborted) return { stopReason: 'cancelled' };
    const outcome = ready
      ? await this.runtime.agent.run(input.text, {
          content: [{ type: 'text', text: ready.text }, ...input.content.filter((p) => p.type !== 'text')],
          preApproved: ready.preApproved,
        })
      : mcpPrompt
        ? await this.runtime.agent.run(input.text, {
            content: [{ type: 'text', text: mcpPrompt.text }, ...input.content.filter((p) => p.type !== 'text')],
          })
        : await this.runtime.agent.run(input.text, { content: input.content });
    await this.updates;
    if (outcome.reason === 'failed') throw RequestError.internalError(undefined, outcome.error ?? 'the turn failed');
    return { stopReason: stopReason(outcome.reason, this.cancelRequested) };
  }

  /** Says why a prompt was not sent, and ends the turn without one. */
  private async refuse(message: string): Promise<{ stopReason: 'end_turn' }> {
    this.say(message);
    await this.updates;
    return { stopReason: 'end_turn' };
  }

  /** The `/names` this session knows (engine/delegation/slashNames.ts): its own commands, skills, plugins' commands. */
  private slashNames() {
    const { runtime } = this.opts.prepared;
    return knownSlashNames({ frontEnd: ACP_COMMAND_NAMES, skills: runtime.skills, plugins: this.plugins });
  }

  /** `session/cancel`: stops the turn; its questions are withdrawn (their editor requests cancelled). */
  cancel(): void {
    this.cancelRequested = true;
    this.expanding?.abort();
    this.runtime.agent.cancel(true);
  }

  setMode(modeId: string): void {
    if (!(MODE_IDS as readonly string[]).includes(modeId))
      throw RequestError.invalidParams(undefined, `unknown mode "${modeId}"; the modes are ${MODE_IDS.join(', ')}`);
    const id = modeId as AcpModeId;
    if (id === 'plan') this.control.planMode = true;
    else {
      this.control.planMode = false;
      this.control.mode = id as PermissionMode;
    }
    this.announceMode();
  }

  setConfigOption(configId: string, value: unknown): SessionConfigOption[] {
    if (typeof value !== 'string')
      throw RequestError.invalidParams(undefined, `the option "${configId}" takes one of its listed values`);
    if (configId === 'mode') this.setMode(value);
    else if (configId === 'model') {
      try {
        this.control.switchModel(value);
      } catch (e) {
        // A turn is running (SessionControlError) or the alias does not resolve (ModelConfigError).
        throw RequestError.invalidParams(undefined, e instanceof Error ? e.message : String(e));
      }
    } else if (configId === 'thinking') {
      if (!applyThinking(this.thinking, value))
        throw RequestError.invalidParams(undefined, `unknown thinking value "${value}"`);
    } else
      throw RequestError.invalidParams(
        undefined,
        `unknown config option "${configId}"; the options are mode, model and thinking`,
      );
    const options = this.configOptions();
    this.send({ sessionUpdate: 'config_option_update', configOptions: options });
    return options;
  }

  /** A turn runs, or a question waits for the editor (the idle clock does not run then). */
  get busy(): boolean {
    return this.runtime.agent.busy || this.queue.size > 0;
  }

  async close(): Promise<void> {
    this.queue.cancelAll();
    await this.control.close();
    await this.updates;
    await this.mcpLease.release();
  }
}
