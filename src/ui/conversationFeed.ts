// Engine events into the conversation. The main agent's events go through the turn view (turnView.ts)
// with the notices of engineNotices.ts; a subagent's only update its line in the subagent group or the
// swarm panel. A turn's start shows the user's prompt (or why an automatic turn runs) and starts the
// activity line; its end says how it ended, ends a completed swarm task's swarm mode and refreshes the
// footer. A question of the engine first moves what has streamed so far into the transcript.
import type { Component } from '@mariozechner/pi-tui';
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import type { QuestionQueue } from '../engine/runtime/questionQueue';
import type { Runtime } from '../engine/runtime/runtime';
import type { ActivityIndicator } from './activityIndicator';
import { automaticTurnNotice, goalNotice, planModeNotice, type UiNotice } from './engineNotices';
import type { PromptAttacher } from './promptAttacher';
import type { PromptSender } from './promptSender';
import type { Block, ViewState } from './transcript/block';
import { CompactionBlock } from './transcript/compactionBlock';
import { NoticeBlock, UserBlock } from './transcript/messageBlocks';
import type { SwarmProgress } from './subagents/subagentView';
import type { Transcript } from './transcript/transcript';
import { TurnView } from './turnView';
import { turnEndNotice } from './turnMessages';

export interface ConversationFeedHost {
  readonly view: ViewState;
  readonly transcript: Transcript;
  readonly runtime: Runtime | undefined;
  readonly busy: boolean;
  readonly shellRunning: boolean;
  readonly prompts: PromptSender;
  readonly attacher: PromptAttacher;
  /** The UserBlock of each user turn (contextActions.ts cuts the transcript there on /undo). */
  readonly turnBlocks: Map<string, Block>;
  readonly activity: ActivityIndicator;
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  requestRender(): void;
  refreshContext(): void;
  refreshBranch(): void;
  /** The swarm task's turn completed: swarm mode goes off. */
  endSwarmMode(): void;
}

export class ConversationFeed {
  private turnView: TurnView;
  /** Engine events sent while a runtime was still opening; shown once it is open. */
  private deferredEvents: EngineEvent[] = [];
  /** The plan mode the user was last told about; a notice says when it changes. */
  planShown: boolean | undefined;
  /** `/swarm <task>` turned swarm mode on: 'pending' until its turn starts, then that turn's id. */
  swarmTaskTurn: string | undefined;

  constructor(private readonly host: ConversationFeedHost) {
    this.turnView = this.newTurnView();
  }

  /** The running AgentSwarm, for the swarm panel. */
  get activeSwarm(): SwarmProgress | undefined {
    return this.turnView.subagents.activeSwarm;
  }

  /** Another session (new, resumed, reloaded): nothing of the previous one's turn stays pending. */
  restart(): void {
    this.turnView.dispose();
    this.turnView = this.newTurnView();
  }

  dispose(): void {
    this.turnView.dispose();
  }

  flushDeltas(): void {
    this.turnView.flushDeltas();
  }

  onEngineEvent(event: EngineEvent): void {
    const { host } = this;
    // The transcript shows the main agent; a subagent's events only update its line in the subagent
    // group or swarm panel (what it is doing, whether it waits for an approval).
    if (event.agentId !== MAIN_AGENT_ID) {
      if (this.turnView.subagents.onChildEvent(event)) host.requestRender();
      return;
    }
    // Events sent while a runtime opens (--plan, a resumed goal being paused) wait until it is open,
    // so they appear after the resumed history, not before it.
    const rt = host.runtime;
    if (!rt) {
      if (!this.deferredEvents.length) setImmediate(() => this.flushDeferredEvents());
      this.deferredEvents.push(event);
      return;
    }
    switch (event.type) {
      case 'plan_mode': {
        const changed = this.planShown !== event.active;
        this.planShown = event.active;
        if (changed) this.show(planModeNotice(event.active, event.planPath));
        break;
      }
      case 'goal':
        this.show(goalNotice(event.change, event.goal, rt.goals.upcoming().length));
        break;
      case 'compaction_end':
        if (!event.error && event.summary) {
          this.turnView.flushDeltas();
          const info = rt.session.state.compactions.at(-1);
          host.transcript.add(
            new CompactionBlock(host.view, {
              trigger: event.trigger,
              summary: event.summary,
              tokensBefore: event.tokensBefore,
              tokensAfter: event.estimatedTokenCount,
              instruction: info?.instruction,
            }),
          );
        }
        host.refreshContext();
        break;
    }
    this.turnView.handle(event);
  }

  /** A question was asked or settled: the activity line says what the agent waits for. */
  questionsChanged(queue: QuestionQueue<Component>, addedInBackground?: boolean): void {
    const { host } = this;
    if (addedInBackground !== undefined) {
      this.turnView.flushDeltas();
      host.transcript.flush();
      if (addedInBackground)
        host.notice(
          'info',
          'The agent asked you something in the background and keeps working; the question opens here when it is idle.',
        );
    }
    host.activity.relabel(queue.blockingLabel() ?? 'Working…');
    host.requestRender();
  }

  private flushDeferredEvents(): void {
    const events = this.deferredEvents;
    this.deferredEvents = [];
    if (!this.host.runtime) return;
    for (const e of events) this.onEngineEvent(e);
  }

  private show(n: UiNotice | undefined): void {
    if (n) this.host.notice(n.level, n.text, n.hint);
  }

  private newTurnView(): TurnView {
    const { host } = this;
    return new TurnView(host.view, host.transcript, {
      requestRender: () => host.requestRender(),
      onUsage: () => host.refreshContext(),
      onTurnStart: (prompt, origin, turnId) => {
        if (origin === 'user' && this.swarmTaskTurn === 'pending') this.swarmTaskTurn = turnId;
        if (origin === 'user') {
          host.prompts.started(prompt);
          const block = new UserBlock(host.view, prompt, 'prompt', host.attacher.takeChips(prompt));
          host.turnBlocks.set(turnId, block);
          host.transcript.add(block);
        } else {
          host.transcript.add(new NoticeBlock(host.view, 'info', automaticTurnNotice(origin)));
        }
        host.activity.start('Working…');
      },
      onTurnEnd: (reason, error, turnId) => {
        const n = turnEndNotice(reason, error);
        if (n) host.transcript.add(new NoticeBlock(host.view, n.level, n.text, n.hint));
        // SPEC §2.4: the swarm task's normal completion ends swarm mode; an interrupted or failed one keeps it.
        if (turnId === this.swarmTaskTurn && reason === 'completed') {
          host.endSwarmMode();
          host.notice('info', 'Swarm task completed; swarm mode off.');
        }
        host.refreshContext();
        host.refreshBranch();
        // The engine's queue may start the next turn right away; the activity line stops only when idle.
        setImmediate(() => {
          if (!host.busy && !host.shellRunning) host.activity.stop();
          host.requestRender();
        });
      },
      onMode: () => undefined,
    });
  }
}
