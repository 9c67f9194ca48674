// Frame-cost benchmark for the UI's screen: a 30 000-line committed transcript, then frames while an
// answer streams (deltas through the real turn view) and steady frames. Bundled by bench/tui.bench.mjs.
import { Screen } from '../src/ui/screen';
import { loadTheme } from '../src/ui/theme';
import type { ViewState } from '../src/ui/transcript/block';
import { AssistantBlock } from '../src/ui/transcript/messageBlocks';
import { Transcript } from '../src/ui/transcript/transcript';
import { TurnView } from '../src/ui/turnView';

export interface FrameFigures {
  transcriptLines: number;
  streamingFrameMs: number;
  steadyFrameMs: number;
  idleFrameMs: number;
  reprintMs: number;
  bytesPerStreamingFrame: number;
}

export function measureFrames(targetLines = 30_000, frames = 400): FrameFigures {
  let bytes = 0;
  const term = { write: (d: string) => void (bytes += d.length), columns: 120, rows: 40 };
  const view: ViewState = { theme: loadTheme('dark', '/nonexistent').theme, expanded: false, cwd: '/w' };
  // The transcript hands finished lines to the screen created just below (used only after that).
  const transcript = new Transcript(
    (lines) => screen.pushScrollback(lines),
    () => term.columns,
  );
  let spinnerFrame = 0;
  const live = {
    render: (w: number) => [
      ...transcript.render(w),
      `⠋ Working… ${spinnerFrame}`,
      '─'.repeat(w),
      ' input',
      '─'.repeat(w),
      'footer',
    ],
    invalidate: () => undefined,
  };
  const screen = new Screen(term, live, (w) => transcript.renderHistory(w));
  const paragraph = Array.from(
    { length: 9 },
    (_, i) => `Line ${i} of a paragraph with **bold**, \`code\` and enough words to look like a real answer.`,
  ).join('\n');
  let lines = 0;
  while (lines < targetLines) {
    const block = new AssistantBlock(view, paragraph);
    block.done = true;
    transcript.add(block);
    lines += block.render(term.columns).length;
  }
  screen.renderNow();

  const turn = new TurnView(view, transcript, {
    requestRender: () => undefined,
    onUsage: () => undefined,
    onTurnStart: () => undefined,
    onTurnEnd: () => undefined,
    onMode: () => undefined,
  });
  turn.handle({ type: 'turn_start', turnId: 't', origin: 'user', prompt: 'p' });
  bytes = 0;
  let t0 = performance.now();
  for (let i = 0; i < frames; i++) {
    turn.handle({ type: 'text_delta', delta: i % 40 === 39 ? ' end.\n\n' : ` token${i}` });
    turn.flushDeltas();
    spinnerFrame++;
    screen.renderNow();
  }
  const streamingFrameMs = (performance.now() - t0) / frames;
  const bytesPerStreamingFrame = bytes / frames;
  turn.handle({ type: 'turn_end', turnId: 't', reason: 'completed' });
  turn.dispose();
  screen.renderNow();

  t0 = performance.now();
  for (let i = 0; i < frames; i++) {
    spinnerFrame++;
    screen.renderNow();
  }
  const steadyFrameMs = (performance.now() - t0) / frames;

  t0 = performance.now();
  for (let i = 0; i < frames; i++) screen.renderNow();
  const idleFrameMs = (performance.now() - t0) / frames;

  t0 = performance.now();
  screen.requestReprint();
  screen.renderNow();
  const reprintMs = performance.now() - t0;
  screen.stop();
  return {
    transcriptLines: transcript.renderHistory(term.columns).length,
    streamingFrameMs,
    steadyFrameMs,
    idleFrameMs,
    reprintMs,
    bytesPerStreamingFrame,
  };
}
