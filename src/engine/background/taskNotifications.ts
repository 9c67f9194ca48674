// Turns finished background tasks into notification step requests. In the interactive UI each one is
// submitted to the agent as it arrives; print mode collects them and decides itself (exit/drain/steer).
// A notification counts as delivered only once the loop has journalled its message (`onJournalled`),
// so one dropped by a quit or a cancel before the next step is delivered again on resume.
import { formatTaskNotification, type TaskInfo, type TaskService } from '../../tools/task/taskService';
import type { Agent } from '../loop/loop';

/** Bytes of a finished task's output included in its notification. */
export const NOTIFICATION_TAIL_BYTES = 4_096;

/** A notification step waiting for the agent: its text, and what to call once it is in the journal. */
export interface PendingNotification {
  text: string;
  onJournalled: () => void;
}

export class TaskNotifications {
  private readonly pending: PendingNotification[] = [];
  /** Finished tasks whose notification text is still being prepared. */
  private preparing = 0;
  private waiters: Array<() => void> = [];
  private agent: Agent | undefined;
  private tasks: TaskService | undefined;

  constructor(private deliver: 'agent' | 'collect') {}

  bind(tasks: TaskService, agent: Agent): void {
    this.tasks = tasks;
    this.agent = agent;
  }

  setDelivery(deliver: 'agent' | 'collect'): void {
    this.deliver = deliver;
  }

  /** The BackgroundTasks `onTaskFinished` callback. */
  readonly onTaskFinished = (task: TaskInfo, delivered: () => void): void => {
    this.preparing++;
    void (async () => {
      // The notification goes out either way; an output that cannot be read is said in it.
      const tail = await this.tasks?.readOutputTail(task.id, NOTIFICATION_TAIL_BYTES).catch((e: unknown) => {
        const why = e instanceof Error ? e.message : String(e);
        const text = `[the output in ${task.outputPath} could not be read: ${why}]`;
        return { text, totalBytes: 0, truncated: false };
      });
      const text = formatTaskNotification(task, tail);
      // Counted down before waking waiters, so a waiter that wakes sees a settled state.
      this.preparing--;
      const agent = this.deliver === 'agent' ? this.agent : undefined;
      if (agent) agent.submit({ kind: 'notification', text, onJournalled: delivered });
      else this.pending.push({ text, onJournalled: delivered });
      this.wake();
    })();
  };

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  hasPending(): boolean {
    return this.pending.length > 0 || this.preparing > 0 || (this.tasks?.hasPending() ?? false);
  }

  describeRunning(): string[] {
    return (this.tasks?.list({ activeOnly: true }) ?? [])
      .filter((t) => t.status === 'running')
      .map((t) => `${t.id} ${t.description}`);
  }

  takeNotifications(): PendingNotification[] {
    return this.pending.splice(0);
  }

  nextChange(signal: AbortSignal): Promise<void> {
    if (this.pending.length || signal.aborted || !this.hasPending()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.push(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
