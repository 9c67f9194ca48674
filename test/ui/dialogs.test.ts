// Key handling of the plan review and question dialogs, the Shift-Tab cycle, the todo panel's
// window, the /usage popup and what a rebuilt transcript shows — without a terminal.
import { describe, expect, it } from 'vitest';
import type { ContextBreakdown } from '../../src/engine/context/context';
import type { PlanReviewAnswer, QuestionRequest, QuestionResponse } from '../../src/engine/delegation/interactions';
import { PlanReviewPanel } from '../../src/ui/dialogs/planReview';
import { QuestionPanel } from '../../src/ui/dialogs/questionDialog';
import { SelectDialog, TextPopup } from '../../src/ui/dialogs/selectDialog';
import { actionOf, nextCycleStop } from '../../src/ui/keymap';
import { usageLines } from '../../src/ui/usageView';
import { loadTheme } from '../../src/ui/theme';
import { TodoPanel, todoWindow } from '../../src/ui/todoPanel';
import { trimPadding } from '../../src/ui/transcript/messageBlocks';
import { blocksFromMessages } from '../../src/ui/transcript/replay';
import { Transcript } from '../../src/ui/transcript/transcript';
import type { ToolCard } from '../../src/ui/transcript/toolCard';
import { TurnView } from '../../src/ui/turnView';

const theme = loadTheme('dark', '/nonexistent').theme;
const strip = (lines: string[]) => lines.join('\n').replace(/\x1b\[[0-9;]*m/g, '');
const KEY = {
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  enter: '\r',
  esc: '\x1b',
  space: ' ',
  ctrlE: '\x05',
  pgDn: '\x1b[6~',
  pgUp: '\x1b[5~',
};

function review(options = [{ label: 'Fast', description: 'cut corners' }], plan = '# Plan\n\n1. one\n2. two') {
  const answers: PlanReviewAnswer[] = [];
  const panel = new PlanReviewPanel(
    theme,
    { planPath: '/s/plans/plan-1.md', plan, options },
    (a) => answers.push(a),
    () => 40,
  );
  return { panel, answers };
}

describe('plan review dialog', () => {
  it("offers Approve, the agent's options, Reject, Reject and Exit, Revise; shows the plan", () => {
    const { panel } = review();
    expect(panel.choiceLabels).toEqual(['Approve', 'Approve: Fast', 'Reject', 'Reject and Exit', 'Revise…']);
    const text = strip(panel.render(80));
    expect(text).toContain('Plan review');
    expect(text).toContain('1. one');
  });

  it('Enter approves; a number picks an option; Esc rejects', () => {
    let r = review();
    r.panel.handleInput(KEY.enter);
    expect(r.answers).toEqual([{ decision: 'approve' }]);
    r = review();
    r.panel.handleInput('2');
    expect(r.answers).toEqual([{ decision: 'approve', option: 'Fast' }]);
    r = review();
    r.panel.handleInput(KEY.down);
    r.panel.handleInput(KEY.down);
    r.panel.handleInput(KEY.down);
    r.panel.handleInput(KEY.enter);
    expect(r.answers).toEqual([{ decision: 'reject_and_exit' }]);
    r = review();
    r.panel.handleInput(KEY.esc);
    expect(r.answers).toEqual([{ decision: 'reject' }]);
  });

  it('Revise asks for feedback: empty Enter stays, Esc goes back, text is sent', () => {
    const { panel, answers } = review([]);
    panel.handleInput('4');
    expect(panel.revising).toBe(true);
    panel.handleInput(KEY.enter);
    expect(answers).toEqual([]);
    panel.handleInput(KEY.esc);
    expect(panel.revising).toBe(false);
    panel.handleInput('4');
    for (const ch of 'add tests') panel.handleInput(ch);
    panel.handleInput(KEY.enter);
    expect(answers).toEqual([{ decision: 'revise', feedback: 'add tests' }]);
  });

  it('a long plan scrolls with PgDn and expands with Ctrl-E', () => {
    const plan = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n\n');
    const { panel } = review([], plan);
    expect(strip(panel.render(80))).toMatch(/lines 1–12 of \d+/);
    panel.handleInput(KEY.pgDn);
    expect(strip(panel.render(80))).toMatch(/lines 13–24 of/);
    panel.handleInput(KEY.ctrlE);
    expect(panel.expanded).toBe(true);
    expect(strip(panel.render(80))).toMatch(/lines 13–36 of/);
  });
});

function ask(questions: QuestionRequest['questions']) {
  const responses: QuestionResponse[] = [];
  const panel = new QuestionPanel(theme, { questions, background: false }, (r) => responses.push(r));
  return { panel, responses };
}
const opts = (...labels: string[]) => [
  ...labels.map((label) => ({ label, description: '' })),
  { label: 'Other', description: 'Type your own answer.' },
];

describe('question dialog', () => {
  it('single select: ↓ Enter answers with that option', () => {
    const { panel, responses } = ask([{ question: 'Which?', options: opts('A', 'B'), multiSelect: false }]);
    panel.handleInput(KEY.down);
    panel.handleInput(KEY.enter);
    expect(responses).toEqual([{ answers: [{ question: 'Which?', kind: 'single', selected: ['B'] }] }]);
  });

  it('"Other" opens a text field; its text is the answer', () => {
    const { panel, responses } = ask([{ question: 'Which?', options: opts('A', 'B'), multiSelect: false }]);
    panel.handleInput('3');
    expect(panel.editingOther).toBe(true);
    for (const ch of 'C please') panel.handleInput(ch);
    panel.handleInput(KEY.enter);
    expect(responses).toEqual([{ answers: [{ question: 'Which?', kind: 'other', selected: [], other: 'C please' }] }]);
  });

  it('multi select: Space toggles, Other adds text, Enter confirms; later questions follow', () => {
    const { panel, responses } = ask([
      { question: 'Which ones?', options: opts('A', 'B', 'C'), multiSelect: true },
      { question: 'Sure?', options: opts('Yes', 'No'), multiSelect: false },
    ]);
    panel.handleInput(KEY.space);
    panel.handleInput('3');
    panel.handleInput('4');
    for (const ch of 'D') panel.handleInput(ch);
    panel.handleInput(KEY.enter);
    expect(strip(panel.render(80))).toContain('Which ones?');
    panel.handleInput(KEY.enter);
    expect(panel.current).toBe(1);
    panel.handleInput('1');
    expect(responses).toEqual([
      {
        answers: [
          { question: 'Which ones?', kind: 'multi_with_other', selected: ['A', 'C'], other: 'D' },
          { question: 'Sure?', kind: 'single', selected: ['Yes'] },
        ],
      },
    ]);
  });

  it('skipping ahead leaves a question "skipped"; Esc dismisses everything', () => {
    let r = ask([
      { question: 'One?', options: opts('A', 'B'), multiSelect: false },
      { question: 'Two?', options: opts('C', 'D'), multiSelect: false },
    ]);
    r.panel.handleInput(KEY.right);
    r.panel.handleInput(KEY.enter);
    expect(r.responses).toEqual([
      {
        answers: [
          { question: 'One?', kind: 'skipped', selected: [] },
          { question: 'Two?', kind: 'single', selected: ['C'] },
        ],
      },
    ]);
    r = ask([{ question: 'One?', options: opts('A', 'B'), multiSelect: false }]);
    r.panel.handleInput(KEY.esc);
    expect(r.responses).toEqual([{ dismissed: true }]);
  });
});

describe('modes, todos, usage, replay', () => {
  it('Shift-Tab cycles manual → plan → yolo → auto → manual', () => {
    expect(nextCycleStop('manual', false)).toEqual({ mode: 'manual', plan: true });
    expect(nextCycleStop('manual', true)).toEqual({ mode: 'yolo', plan: false });
    expect(nextCycleStop('yolo', false)).toEqual({ mode: 'auto', plan: false });
    expect(nextCycleStop('auto', false)).toEqual({ mode: 'manual', plan: false });
    expect(nextCycleStop('auto', true)).toEqual({ mode: 'yolo', plan: false });
  });

  it('ESC ESC in one chunk is a double escape; Ctrl-T toggles todos', () => {
    expect(actionOf('\x1b\x1b')).toBe('doubleEscape');
    expect(actionOf('\x1b')).toBe('escape');
    expect(actionOf('\x14')).toBe('toggleTodos');
  });

  it('the collapsed todo list shows a window around the item in progress', () => {
    const todos = Array.from(
      { length: 10 },
      (_, i) => ({ title: `t${i}`, status: i < 6 ? 'done' : i === 6 ? 'in_progress' : 'pending' }) as const,
    );
    expect(todoWindow(todos, 5)).toEqual({ start: 5, end: 10 });
    expect(todoWindow(todos.slice(0, 3), 5)).toEqual({ start: 0, end: 3 });
    const panel = new TodoPanel(
      () => theme,
      () => ({ todos, expanded: false, busy: false }),
    );
    const text = strip(panel.render(60));
    expect(text).toContain('Todos 6/10 done');
    expect(text).toContain('◐ t6');
    expect(text).toContain('… 5 earlier');
    expect(text).not.toContain('t4');
    const finished = new TodoPanel(
      () => theme,
      () => ({ todos: [{ title: 'x', status: 'done' }], expanded: false, busy: false }),
    );
    expect(finished.render(60)).toEqual([]);
  });

  it('/usage lists the context by source and the session totals', () => {
    const b: ContextBreakdown = {
      total: 5000,
      window: 100_000,
      free: 95_000,
      compactAt: 85_000,
      sources: { systemPrompt: 1000, agentsMd: 0, toolSchemas: 3000, history: 500, memory: 300, toolResults: 200 },
      estimated: 5000,
      messages: 4,
      compactions: 0,
      session: { inputTokens: 9000, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0, lastInputTokens: 4800 },
    };
    const text = usageLines(b, 2).join('\n');
    expect(text).toContain('Context      5% · 5,000 of 100,000 tokens');
    expect(text).toMatch(/Tool schemas\s+3,000\s+60%/);
    expect(text).toMatch(/Memory recall\s+300\s+6%/);
    expect(text).toMatch(/Input\s+9,000/);
    expect(usageLines(b, 2, { offered: 14, deferred: 9, loaded: 2 }).join('\n')).toMatch(
      /Tool schemas\s+3,000\s+60%\n\s+14 tools offered · 9 deferred, 2 of them loaded with ToolSearch/,
    );
  });

  it('rendered Markdown lines lose their width padding (kept lines cost less)', () => {
    expect(trimPadding('abc   ')).toBe('abc');
    expect(trimPadding('\x1b[1mabc\x1b[22m    \x1b[0m')).toBe('\x1b[1mabc\x1b[22m\x1b[0m');
    expect(trimPadding('  indented')).toBe('  indented');
  });

  it('a rebuilt transcript hides injected reminders and shows a compaction block', () => {
    const view = { theme, expanded: false, cwd: '/w' };
    const blocks = blocksFromMessages(
      [
        { role: 'user', content: [{ type: 'text', text: '<compaction-summary>\nnote\n</compaction-summary>' }] },
        { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nPlan mode is on\n</system-reminder>' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'real prompt' },
            { type: 'text', text: '<recalled-memories trust="untrusted">\nrecalled fact\n</recalled-memories>' },
          ],
        },
      ],
      view,
      [{ trigger: 'manual', summary: 'The summary.', tokensBefore: 100, tokensAfter: 10, summarised: 4 }],
    );
    const text = strip(blocks.flatMap((b) => b.render(80)));
    expect(text).toContain('Conversation compacted');
    expect(text).toContain('> real prompt');
    expect(text).not.toContain('Plan mode is on');
    expect(text).not.toContain('recalled fact');
  });

  it('a tool card shows "rejected" from the approval event, whatever the result text says', () => {
    const view = { theme, expanded: false, cwd: '/w' };
    const transcript = new Transcript(
      () => {},
      () => 80,
    );
    const host = { requestRender() {}, onUsage() {}, onTurnStart() {}, onTurnEnd() {}, onMode() {} };
    const turn = new TurnView(view, transcript, host);
    const call = (id: string) => ({ id, name: 'Bash', arguments: '{"command":"ls"}' });
    turn.handle({ type: 'tool_call', call: call('a'), subject: 'Bash(ls)' });
    turn.handle({ type: 'tool_call', call: call('b'), subject: 'Bash(ls)' });
    turn.handle({ type: 'approval_decision', callId: 'a', subject: 'Bash(ls)', decision: 'deny', by: 'user' });
    turn.handle({ type: 'approval_decision', callId: 'b', subject: 'Bash(ls)', decision: 'deny', by: 'rule' });
    // The model-facing wording is the engine's business: neither text decides the card's status.
    turn.handle({
      type: 'tool_result',
      callId: 'a',
      toolName: 'Bash',
      text: 'Declined by the person at the keyboard.',
      isError: true,
    });
    turn.handle({
      type: 'tool_result',
      callId: 'b',
      toolName: 'Bash',
      text: 'The user rejected… (not really: a rule denied it)',
      isError: true,
    });
    const [a, b] = transcript.committed as ToolCard[];
    expect([a.status, b.status]).toEqual(['rejected', 'error']);
  });

  it('a tool card waiting in the approval panel says so, and says running… once approved', () => {
    const view = { theme, expanded: false, cwd: '/w' };
    const transcript = new Transcript(
      () => {},
      () => 80,
    );
    const host = { requestRender() {}, onUsage() {}, onTurnStart() {}, onTurnEnd() {}, onMode() {} };
    const turn = new TurnView(view, transcript, host);
    turn.handle({
      type: 'tool_call',
      call: { id: 'a', name: 'Bash', arguments: '{"command":"sleep 25"}' },
      subject: 'Bash(sleep 25)',
    });
    turn.handle({ type: 'approval_request', callId: 'a', toolName: 'Bash', subject: 'Bash(sleep 25)', reason: 'asks' });
    const shown = () => strip(transcript.render(80));
    expect(shown()).toContain('waiting for your approval');
    expect(shown()).not.toContain('running…');
    turn.handle({ type: 'approval_decision', callId: 'a', subject: 'Bash(sleep 25)', decision: 'allow', by: 'user' });
    expect(shown()).toContain('running…');
    expect(shown()).not.toContain('waiting for your approval');
  });
});

describe('popups page by what they show', () => {
  it('PgDn and PgUp move a text popup by the rows it shows, not by ten', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `row ${i + 1}`);
    const popup = new TextPopup(
      theme,
      'Help',
      lines,
      () => undefined,
      () => 40,
    );
    const range = () =>
      /\((\d+)–(\d+) of 100\)/
        .exec(strip(popup.render(80)))!
        .slice(1)
        .map(Number);
    const [first, last] = range();
    expect(first).toBe(1);
    const page = last - first + 1;
    expect(page).toBeGreaterThan(10);
    popup.handleInput(KEY.pgDn);
    expect(range()).toEqual([1 + page, 2 * page]);
    popup.handleInput(KEY.pgUp);
    expect(range()).toEqual([1, page]);
  });

  it("PgDn and PgUp move a pick list's selection by the rows it shows", () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ value: `s${i + 1}`, label: `session ${i + 1}` }));
    const picked: string[] = [];
    const dialog = new SelectDialog(theme, {
      title: 'Sessions',
      items,
      maxVisible: 7,
      onSelect: (v) => picked.push(v),
    });
    dialog.render(80);
    dialog.handleInput(KEY.pgDn);
    dialog.handleInput(KEY.pgDn);
    dialog.handleInput(KEY.enter);
    dialog.handleInput(KEY.pgUp);
    dialog.handleInput(KEY.enter);
    for (let i = 0; i < 6; i++) dialog.handleInput(KEY.pgDn);
    dialog.handleInput(KEY.enter);
    expect(picked).toEqual(['s15', 's8', 's30']);
  });
});
