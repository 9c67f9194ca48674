// Turns engine events into transcript blocks. Text and thinking deltas are coalesced (≈50 ms) so a
// fast stream costs a frame per batch, not per token; finished Markdown blocks of a long answer move
// to the scrollback while the answer is still streaming.
import type { EngineEventBody } from '../engine/loop/events';
import type { TurnOrigin } from '../engine/session/records';
import { splitStableMarkdown } from './markdown';
import { AssistantBlock, NoticeBlock, RetryNoticeBlock, ThinkingBlock } from './transcript/messageBlocks';
import type { ViewState } from './transcript/block';
import { describeCall, ToolCard } from './transcript/toolCard';
import type { Transcript } from './transcript/transcript';
import { SubagentView } from './subagents/subagentView';

export const DELTA_COALESCE_MS = 50;

export interface TurnViewHost {
  requestRender(): void;
  onUsage(contextTokens: number, contextLimit: number): void;
  onTurnStart(prompt: string, origin: TurnOrigin, turnId: string): void;
  onTurnEnd(reason: string, error: string | undefined, turnId: string): void;
  onMode(mode: string): void;
}

export class TurnView {
  private answer: AssistantBlock | undefined;
  /** Answer text not yet moved to the scrollback. */
  private pendingText = '';
  private thinking: ThinkingBlock | undefined;
  private readonly cards = new Map<string, ToolCard>();
  /** Calls the user rejected in the approval panel (from the engine's approval_decision event). */
  private readonly rejectedByUser = new Set<string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private textBuffer = '';
  private thinkingBuffer = '';
  /** Foreground Agent calls grouped per response, and the running swarm (src/ui/subagents). */
  readonly subagents: SubagentView;
  /** The current model attempt has shown answer or thinking text (a retry then says it is discarded). */
  private attemptShown = false;

  constructor(
    private readonly view: ViewState,
    private readonly transcript: Transcript,
    private readonly host: TurnViewHost,
  ) {
    this.subagents = new SubagentView(view, transcript);
  }

  handle(event: EngineEventBody): void {
    switch (event.type) {
      case 'turn_start':
        this.host.onTurnStart(event.prompt, event.origin, event.turnId);
        return;
      case 'step_start':
        this.attemptShown = false;
        return;
      case 'text_delta':
        this.textBuffer += event.delta;
        this.scheduleFlush();
        return;
      case 'thinking_delta':
        this.thinkingBuffer += event.delta;
        this.scheduleFlush();
        return;
      case 'tool_call_start':
      case 'assistant_message':
        this.flushDeltas();
        this.endAnswer();
        this.endThinking();
        if (event.type === 'assistant_message') this.subagents.newStep();
        break;
      case 'tool_call': {
        this.flushDeltas();
        this.endAnswer();
        this.endThinking();
        if (this.subagents.claim(event.call)) break;
        const card = new ToolCard(
          this.view,
          event.call.id,
          event.call.name,
          describeCall(event.call.name, event.call.arguments, this.view.cwd),
        );
        this.cards.set(event.call.id, card);
        this.transcript.add(card);
        break;
      }
      case 'tool_progress': {
        const card = this.cards.get(event.callId);
        if (card && event.progress.stream !== 'status') card.appendOutput(event.progress.text);
        break;
      }
      case 'subagent':
        this.subagents.onSubagent(event);
        break;
      case 'tool_result': {
        if (this.subagents.finishCall(event.callId, event.isError, event.text)) break;
        const card = this.cards.get(event.callId);
        if (card) {
          const rejected = this.rejectedByUser.has(event.callId);
          card.finish(
            {
              text: event.text,
              isError: event.isError,
              summary: event.summary,
              display: event.display,
              diagnostics: event.diagnostics,
            },
            rejected ? 'rejected' : undefined,
          );
          this.cards.delete(event.callId);
        }
        this.rejectedByUser.delete(event.callId);
        this.transcript.flush();
        break;
      }
      case 'retry': {
        // What the failed attempt streamed but did not show yet is dropped unseen.
        const shown = this.attemptShown;
        this.textBuffer = '';
        this.thinkingBuffer = '';
        this.discardAnswer();
        this.endThinking();
        this.attemptShown = false;
        const discarded = shown ? ', partial answer discarded' : '';
        this.transcript.add(
          new RetryNoticeBlock(
            this.view,
            `Retry ${event.attempt + 1} of ${event.maxAttempts} in ${Math.ceil(event.delayMs / 1000)}s${discarded}`,
            event.error,
          ),
        );
        break;
      }
      case 'usage':
        this.host.onUsage(event.contextTokens, event.contextLimit);
        break;
      case 'mode':
        this.host.onMode(event.mode);
        break;
      case 'notice':
        // A failed turn's error also arrives as turn_end; show it once, with what to do, there.
        if (event.level !== 'error') this.transcript.add(new NoticeBlock(this.view, event.level, event.text));
        break;
      case 'approval_request':
        this.setAwaitingApproval(event.callId, true);
        break;
      case 'approval_decision':
        this.setAwaitingApproval(event.callId, false);
        if (event.decision === 'deny' && event.by === 'user') this.rejectedByUser.add(event.callId);
        break;
      case 'turn_end':
        this.flushDeltas();
        this.endAnswer();
        this.endThinking();
        for (const card of this.cards.values()) card.finish({ text: 'Interrupted.', isError: true });
        this.cards.clear();
        this.subagents.endTurn();
        this.rejectedByUser.clear();
        this.transcript.settle();
        this.host.onTurnEnd(event.reason, event.error, event.turnId);
        break;
    }
    this.host.requestRender();
  }

  private setAwaitingApproval(callId: string, waiting: boolean): void {
    const card = this.cards.get(callId);
    if (card) card.awaitingApproval = waiting;
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flushDeltas();
      this.host.requestRender();
    }, DELTA_COALESCE_MS);
  }

  /** Applies buffered deltas to the blocks. */
  flushDeltas(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.thinkingBuffer) {
      if (!this.thinking) {
        this.thinking = new ThinkingBlock(this.view);
        this.transcript.add(this.thinking);
      }
      if (this.thinkingBuffer.trim()) this.attemptShown = true;
      this.thinking.append(this.thinkingBuffer);
      this.thinkingBuffer = '';
    }
    if (this.textBuffer) {
      this.endThinking();
      if (this.textBuffer.trim()) this.attemptShown = true;
      this.pendingText += this.textBuffer;
      this.textBuffer = '';
      const { stable, tail } = splitStableMarkdown(this.pendingText);
      if (stable) {
        const block = this.answer ?? this.newAnswerBlock();
        block.setText(stable);
        block.done = true;
        this.answer = undefined;
        this.pendingText = tail;
      }
      if (this.pendingText.trim()) (this.answer ?? this.newAnswerBlock()).setText(this.pendingText);
      this.transcript.flush();
    }
  }

  private newAnswerBlock(): AssistantBlock {
    const block = new AssistantBlock(this.view, '');
    this.answer = block;
    this.transcript.add(block);
    return block;
  }

  private endAnswer(): void {
    if (this.answer) {
      this.answer.setText(this.pendingText);
      this.answer.done = true;
    }
    this.answer = undefined;
    this.pendingText = '';
    this.transcript.flush();
  }

  private discardAnswer(): void {
    if (this.answer) {
      this.answer.setText('');
      this.answer.done = true;
    }
    this.answer = undefined;
    this.pendingText = '';
    this.transcript.flush();
  }

  private endThinking(): void {
    if (this.thinking) this.thinking.finish();
    this.thinking = undefined;
    this.transcript.flush();
  }

  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }
}
