// The state openRuntime's steps share (runtime.ts): the options, the warnings to report, the gate, the event channel,
// what to close at the end, and the slot the main agent fills when it is assembled.
import type { AgentDirectory, AgentParts } from '../delegation/agents';
import type { BackgroundTasks } from '../background/backgroundTasks';
import type { CronScheduler } from '../background/cronScheduler';
import type { TaskNotifications } from '../background/taskNotifications';
import type { ExtensionGate } from '../extensions/extensionGate';
import type { EngineEvent } from '../loop/events';
import type { Agent } from '../loop/loop';
import type { Disposables } from './disposables';
import type { RuntimeOptions } from './runtimeShape';

/**
 * The main agent, filled in by the last assembly step. Cron fires, page summaries, delegation and tower reach the
 * main agent through it; none of them can run before openRuntime returns, and if one ever did, it would fail here
 * with a message instead of reading an unassigned variable.
 */
export class MainAgentSlot {
  private parts: AgentParts | undefined;
  private directory: AgentDirectory | undefined;

  fill(parts: AgentParts, directory: AgentDirectory): void {
    this.parts = parts;
    this.directory = directory;
  }

  get agent(): Agent {
    return this.get().parts.agent;
  }

  get agents(): AgentDirectory {
    return this.get().directory;
  }

  private get(): { parts: AgentParts; directory: AgentDirectory } {
    if (!this.parts || !this.directory) throw new Error('the main agent was used before the runtime was assembled');
    return { parts: this.parts, directory: this.directory };
  }
}

/** What every step may use: the options, the warnings to report, the gate, the event channel and the closers. */
export interface Assembly {
  opts: RuntimeOptions;
  warnings: string[];
  gate: ExtensionGate;
  emit(event: EngineEvent): void;
  disposables: Disposables;
  main: MainAgentSlot;
}

export interface BackgroundWork {
  tasks: BackgroundTasks;
  notifications: TaskNotifications;
  cron: CronScheduler;
  cronOff: boolean;
}
