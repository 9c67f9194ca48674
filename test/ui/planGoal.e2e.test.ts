// Plan mode, questions, todos and goals in the interactive UI: the real binary in tmux against the
// mock model server.
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { requestText, send, appsClosedAfterEach } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

/** The plan file path EnterPlanMode told the model about. */
function planPathOf(req: RecordedRequest): string {
  // The plan file is in the session's scratch folder: scratch/plans/<agent>/plan-<hex>.md (docs/sessions.md).
  const m = /(\/[^"\\\s]*\/scratch\/plans\/main\/plan-[0-9a-f]+\.md)/.exec(JSON.stringify(req.body));
  if (!m) throw new Error('no plan path in the request');
  return m[1];
}

/** EnterPlanMode → Write the plan → ExitPlanMode (with `options`) → `after`. */
function planScript(options: Array<{ label: string; description: string }> | undefined, after: ScriptedTurn) {
  return (req: RecordedRequest, i: number): ScriptedTurn => {
    if (i === 0) return { toolCalls: [{ name: 'EnterPlanMode', arguments: {} }] };
    if (i === 1)
      return {
        toolCalls: [
          {
            name: 'Write',
            arguments: {
              path: planPathOf(req),
              content: '# Migration plan\n\n1. Step one: add the table\n2. Step two: backfill the rows\n',
            },
          },
        ],
      };
    if (i === 2) return { toolCalls: [{ name: 'ExitPlanMode', arguments: options ? { options } : {} }] };
    return after;
  };
}

describe.skipIf(!hasTmux)('plan mode, questions, todos, goals (tmux)', { timeout: 60_000 }, () => {
  it('reviews a plan in a dialog; Approve reaches the model and leaves plan mode', async () => {
    const app = await start({
      script: planScript([{ label: 'Quick route', description: 'skip the backfill' }], {
        text: 'Implementing the approved plan.',
      }),
    });
    send(app, 'plan the migration');
    // The key hints are the dialog's last row: waiting for them does not catch a half-drawn frame.
    const dialog = await app.tmux.waitFor('Esc reject');
    expect(dialog).toContain('Plan review');
    expect(dialog).toContain('Step one: add the table');
    expect(dialog).toContain('Approve: Quick route');
    expect(dialog).toContain('Reject and Exit');
    expect(dialog).toContain('Revise');
    expect(dialog).toContain('PLAN');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Implementing the approved plan.');
    expect(requestText(app, 3)).toContain('The user approved the plan');
    expect(app.tmux.screen()).toContain('Plan mode off.');
    expect(app.tmux.screen()).not.toMatch(/manual · PLAN/);
  });

  it('sends "Revise" feedback to the model and stays in plan mode', async () => {
    const app = await start({ script: planScript(undefined, { text: 'I will revise the plan.' }) });
    send(app, 'plan it');
    await app.tmux.waitFor('Plan review');
    app.tmux.keys('4');
    await app.tmux.waitFor('What should change in the plan?');
    app.tmux.type('add a rollback step');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('I will revise the plan.');
    const body = requestText(app, 3);
    expect(body).toContain('The user wants the plan revised');
    expect(body).toContain('add a rollback step');
    expect(app.tmux.screen()).toMatch(/manual · PLAN/);
  });

  it('answers AskUserQuestion in the question dialog', async () => {
    const app = await start({
      turns: [
        {
          toolCalls: [
            {
              name: 'AskUserQuestion',
              arguments: {
                questions: [
                  {
                    question: 'Which database should I use?',
                    header: 'Database',
                    options: [
                      { label: 'Postgres', description: 'relational server' },
                      { label: 'SQLite', description: 'embedded file' },
                    ],
                  },
                ],
              },
            },
          ],
        },
        { text: 'Going with SQLite.' },
      ],
    });
    send(app, 'set up storage');
    const dialog = await app.tmux.waitFor('Which database should I use?');
    expect(dialog).toContain('Postgres');
    expect(dialog).toContain('3. Other');
    app.tmux.keys('Down');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Going with SQLite.');
    expect(requestText(app, 1)).toContain('→ SQLite');
  });

  it('shows the todo list above the input box; Ctrl-T expands it', async () => {
    const todos = [
      'Read the code',
      'Write the migration',
      'Add tests',
      'Update docs',
      'Run the suite',
      'Tag a release',
    ].map((title, i) => ({ title, status: i === 0 ? 'done' : i === 1 ? 'in_progress' : 'pending' }));
    const app = await start({
      turns: [{ toolCalls: [{ name: 'TodoList', arguments: { todos } }] }, { text: 'Listed the work.' }],
    });
    send(app, 'make a todo list');
    const screen = await app.tmux.waitFor('Listed the work.');
    expect(screen).toContain('Todos 1/6 done');
    expect(screen).toContain('◐ Write the migration');
    expect(screen).toContain('more (ctrl+t to expand)');
    expect(screen).not.toContain('Tag a release');
    app.tmux.keys('C-t');
    await app.tmux.waitFor('Tag a release');
  });

  it('/plan and Shift-Tab switch plan mode; /goal starts, completes and reports status', async () => {
    const app = await start({
      turns: [
        { toolCalls: [{ name: 'UpdateGoal', arguments: { status: 'complete', summary: 'The report is written.' } }] },
        { text: 'All done with the report.' },
      ],
    });
    await app.tmux.waitFor('manual · any');
    send(app, '/plan');
    await app.tmux.waitFor('manual · PLAN');
    app.tmux.keys('BTab');
    await app.tmux.waitFor('YOLO · any');
    app.tmux.keys('BTab');
    await app.tmux.waitFor('AUTO · any');
    app.tmux.keys('BTab');
    await app.tmux.waitFor('manual · any');
    send(app, '/goal write the report');
    await app.tmux.waitFor('Goal started: write the report');
    await app.tmux.waitFor('All done with the report.');
    await app.tmux.waitFor('Goal complete: The report is written.');
    expect(requestText(app, 0)).toContain('goal-mode');
    send(app, '/goal status');
    const status = await app.tmux.waitFor('Goal complete (The report is written.): write the report');
    expect(status).toContain('turns');
  });
});
