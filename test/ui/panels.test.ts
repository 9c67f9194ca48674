// What the live-region panels and a few transcript blocks draw, rendered without a terminal: frames open on the
// right (rows as long as their text, off the last two columns), long choices wrapped (not cut), diff counts, and
// the one-line retry notice.
import { visibleWidth } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, ApprovalRequest } from '../../src/engine/policy/approvals';
import { ApprovalPanel } from '../../src/ui/approvalPanel';
import { approvalPreview } from '../../src/ui/approvalPreview';
import { PlanReviewPanel } from '../../src/ui/dialogs/planReview';
import { QuestionPanel } from '../../src/ui/dialogs/questionDialog';
import { SelectDialog, TextPopup } from '../../src/ui/dialogs/selectDialog';
import { diffLines, diffStats } from '../../src/ui/diffView';
import { loadTheme } from '../../src/ui/theme';
import { ToolCard } from '../../src/ui/transcript/toolCard';
import { Transcript } from '../../src/ui/transcript/transcript';
import { TurnView } from '../../src/ui/turnView';

const theme = loadTheme('dark', '/nonexistent').theme;
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');
const LONG_PATTERN = 'Edit(/home/someone/projects/a-rather-long-repository-name/src/components/forms/**)';

function approvalRequest(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    callId: 'c1',
    toolName: 'Edit',
    subject: 'Edit(/home/someone/projects/a-rather-long-repository-name/src/components/forms/field.tsx)',
    sessionPattern: LONG_PATTERN,
    args: { path: '/nonexistent/field.tsx', old_string: 'a', new_string: 'b' },
    accesses: [],
    reason:
      'Edit changes files; manual mode asks first, and this reason is long enough to need a second line at sixty columns',
    ...over,
  };
}

/** The text of a panel's rows with the frame taken off and continuation lines joined. */
function framedText(lines: string[]): string {
  return lines
    .slice(1, -1)
    .map((l) => plain(l).slice(2).trim())
    .join(' ');
}

const PANELS: Array<[string, () => { render(width: number): string[] }]> = [
  ['approval panel', () => new ApprovalPanel(approvalRequest(), theme, '/w', () => undefined)],
  [
    'plan review',
    () =>
      new PlanReviewPanel(
        theme,
        {
          planPath: '/s/plans/plan-1.md',
          plan: `# Plan\n\n${'a very long plan line '.repeat(8)}`,
          options: [
            { label: 'Fast', description: 'cut corners wherever the tests still pass, which is a long description' },
          ],
        },
        () => undefined,
        () => 40,
      ),
  ],
  [
    'question',
    () =>
      new QuestionPanel(
        theme,
        {
          background: false,
          questions: [
            {
              question: 'Which database should the service use in production?',
              header: 'DB',
              multiSelect: false,
              options: [
                { label: 'PostgreSQL', description: 'relational, what the rest of the company runs already' },
                { label: 'SQLite', description: 'one file' },
              ],
            },
          ],
        },
        () => undefined,
      ),
  ],
  [
    'select dialog',
    () =>
      new SelectDialog(theme, {
        title: 'Pick a model',
        body: ['A body line that is long enough to wrap inside a narrow dialog box, twice over.'],
        items: [{ value: 'a', label: 'alpha' }],
        onSelect: () => undefined,
      }),
  ],
  [
    'text popup',
    () =>
      new TextPopup(
        theme,
        'Help',
        ['a line far too long to fit: '.repeat(6), 'short'],
        () => undefined,
        () => 30,
      ),
  ],
];

describe('dialog frames', () => {
  it.each(PANELS)(
    '%s: every row has the left border, no trailing blanks, and stays off the last two columns',
    (_name, make) => {
      for (const width of [60, 41]) {
        const lines = make().render(width);
        expect(plain(lines[0])).toBe(`╭${'─'.repeat(width - 3)}`);
        expect(plain(lines[lines.length - 1])).toBe(`╰${'─'.repeat(width - 3)}`);
        for (const line of lines) {
          expect(visibleWidth(line), plain(line)).toBeLessThanOrEqual(width - 2);
          // No padding: a blank at the end is only ever a styled one (an inverse header tag).
          expect(line).not.toMatch(/ $/);
          if (line !== lines[0] && line !== lines[lines.length - 1]) expect(plain(line)).toMatch(/^│( |$)/);
        }
      }
    },
  );
});

describe('approval panel at 60 columns', () => {
  it('wraps a long choice under its label instead of cutting it', () => {
    const lines = new ApprovalPanel(approvalRequest(), theme, '/w', () => undefined).render(60).map(plain);
    const text = framedText(lines);
    expect(text).toContain(`2. Approve for this session (${LONG_PATTERN})`.replace(/\s+/g, ' ').slice(0, 40));
    // The whole pattern is there, over several rows, and nothing is cut with an ellipsis.
    expect(text.replace(/\s+/g, '')).toContain(`Approveforthissession(${LONG_PATTERN})`.replace(/\s+/g, ''));
    const first = lines.findIndex((l) => l.includes('2. Approve for this session'));
    expect(lines[first + 1]).toMatch(/^│ {6}\S/);
    expect(lines.some((l) => l.includes('…') && l.includes('Approve'))).toBe(false);
    expect(text).toContain('need a second line at sixty columns');
  });

  it('the chosen option is still picked by number after wrapping', () => {
    const answers: ApprovalAnswer[] = [];
    const panel = new ApprovalPanel(approvalRequest(), theme, '/w', (a) => answers.push(a));
    panel.render(60);
    panel.handleInput('2');
    expect(answers).toEqual([{ decision: 'approve_session' }]);
  });
});

describe('approval panel for computer use (docs/approvals.md, "Computer use")', () => {
  it('offers only "once" for an acting call, and only "for this session" for the authorization', () => {
    const answers: ApprovalAnswer[] = [];
    const once = new ApprovalPanel(approvalRequest({ offers: ['once'] }), theme, '/w', (a) => answers.push(a));
    const onceText = framedText(once.render(100));
    expect(onceText).toContain('1. Approve once');
    expect(onceText).not.toContain('Approve for this session');
    once.handleInput('2');
    const authorization = approvalRequest({
      toolName: 'ComputerUse',
      subject: 'ComputerUse(:0)',
      sessionPattern: 'ComputerUse(:0)',
      offers: ['session'],
    });
    const auth = new ApprovalPanel(authorization, theme, '/w', (a) => answers.push(a));
    const authText = framedText(auth.render(100));
    expect(authText).toContain('1. Approve for this session (ComputerUse(:0))');
    expect(authText).not.toContain('Approve once');
    auth.handleInput('1');
    expect(answers).toEqual([{ decision: 'reject' }, { decision: 'approve_session' }]);
  });

  it('shows a screenshot on the tool card as what was done, its size and where it is kept', () => {
    const card = new ToolCard(
      { theme, expanded: false, cwd: '/w' },
      'c1',
      'mcp__plugin-jarvis-computer-use_desktop__screenshot',
      '',
    );
    card.finish({
      text: 'Whole screen: 1280×800 px. …',
      isError: false,
      summary: 'Whole screen: 1280×800 px.',
      display: {
        kind: 'image',
        path: '/s/screenshots/main-1-0-2.png',
        bytes: 146_432,
        width: 1280,
        height: 800,
        mediaType: 'image/png',
      },
    });
    const text = card.render(120).map(plain).join('\n');
    expect(text).toContain('⎿ Whole screen: 1280×800 px.');
    expect(text).toContain('image 1280×800, 143 KB · /s/screenshots/main-1-0-2.png');
  });
});

describe('approval panel for a Bash line with a continuation', () => {
  it('shows the line as bash reads it and the parsed command, not the split words', () => {
    const request = approvalRequest({
      toolName: 'Bash',
      subject: 'Bash(r\\\nm -f canary)',
      args: { command: 'r\\\nm -f canary' },
      reason: 'a backslash-newline inside a word, a quoted string or a here-document (bash joins the lines there)',
      commands: ['rm -f canary'],
      normalised: 'rm -f canary',
    });
    const lines = new ApprovalPanel(request, theme, '/w', () => undefined).render(60).map(plain);
    const text = framedText(lines);
    expect(text).toContain('Bash reads it as: rm -f canary');
    expect(text).toContain('Parsed as: • rm -f canary');
    expect(text).not.toContain('r m -f canary');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
  });
});

describe('diff counts', () => {
  it('a one-line file is +1 -0 (its final line break starts no extra line)', () => {
    expect(diffStats(diffLines('', 'hello\n'))).toEqual({ added: 1, removed: 0 });
    expect(diffStats(diffLines('', 'hello'))).toEqual({ added: 1, removed: 0 });
    expect(diffStats(diffLines('a\n', 'b\n'))).toEqual({ added: 1, removed: 1 });
    expect(diffStats(diffLines('a\nb\n', 'a\nb\nc\n'))).toEqual({ added: 1, removed: 0 });
  });

  it('the approval preview and the finished tool card say +1 -0 for a new one-line file', () => {
    const preview = approvalPreview(
      approvalRequest({ toolName: 'Write', args: { path: '/nonexistent-dir/new.txt', content: 'hello\n' } }),
      '/w',
      theme,
    );
    expect(plain(preview.title)).toBe('Create /nonexistent-dir/new.txt +1 -0');
    const card = new ToolCard({ theme, expanded: false, cwd: '/w' }, 'c1', 'Write', 'new.txt');
    card.finish({
      text: 'Wrote 6 bytes',
      isError: false,
      summary: 'Created',
      display: { kind: 'diff', path: '/w/new.txt', before: '', after: 'hello\n' },
    });
    expect(card.render(80).map(plain).join('\n')).toContain('Created +1 -0');
  });
});

describe('retry notice', () => {
  function turn() {
    const printed: string[] = [];
    const transcript = new Transcript(
      (lines) => printed.push(...lines.map(plain)),
      () => 100,
    );
    const host = { requestRender() {}, onUsage() {}, onTurnStart() {}, onTurnEnd() {}, onMode() {} };
    return { view: new TurnView({ theme, expanded: false, cwd: '/w' }, transcript, host), printed };
  }
  const retry = {
    type: 'retry' as const,
    attempt: 1,
    maxAttempts: 10,
    delayMs: 2000,
    error: 'The provider is overloaded (529).\nRequest id: req_123',
  };

  it('is one line, and says nothing of a partial answer when none was shown', () => {
    const { view, printed } = turn();
    view.handle({ type: 'step_start', turnId: 't', step: 1 });
    view.handle(retry);
    expect(printed).toEqual(['⚠ Retry 2 of 10 in 2s: The provider is overloaded (529).']);
  });

  it('mentions the discarded partial answer when one was shown', () => {
    const { view, printed } = turn();
    view.handle({ type: 'step_start', turnId: 't', step: 1 });
    view.handle({ type: 'text_delta', delta: 'Here is the first paragraph.\n\nAnd a second one' });
    view.flushDeltas();
    view.handle(retry);
    view.dispose();
    expect(printed.filter((l) => l.startsWith('⚠'))).toEqual([
      '⚠ Retry 2 of 10 in 2s, partial answer discarded: The provider is overloaded (529).',
    ]);
  });

  it('text the failed attempt streamed but never showed is dropped quietly', () => {
    const { view, printed } = turn();
    view.handle({ type: 'step_start', turnId: 't', step: 1 });
    view.handle({ type: 'text_delta', delta: 'half an ans' });
    view.handle(retry);
    view.dispose();
    expect(printed).toEqual(['⚠ Retry 2 of 10 in 2s: The provider is overloaded (529).']);
  });

  it('never wraps: a long error is cut to the width', () => {
    const { view, printed } = turn();
    view.handle({ ...retry, error: `Connection failed: ${'x'.repeat(200)}` });
    expect(printed).toHaveLength(1);
    expect(visibleWidth(printed[0])).toBe(100);
    expect(printed[0]).toMatch(/^⚠ Retry 2 of 10 in 2s: Connection failed: x+…$/);
  });
});
