import { describe, expect, it } from 'vitest';
import { QuestionAsker, type InteractionPort } from '../../../src/engine/delegation/interactions';
import type { Agent, StepRequest } from '../../../src/engine/loop/loop';
import type { PermissionMode } from '../../../src/engine/session/records';
import type { Session } from '../../../src/engine/session/session';
import {
  askUserQuestionTool,
  formatAnswers,
  MAX_HEADER_CHARS,
  QUESTION_SERVICE,
  type QuestionRequest,
  type QuestionResponse,
} from '../../../src/tools/question';
import { makeToolHarness } from '../../helpers/toolHarness';

const opts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ label: `Option ${i + 1}`, description: `does ${i + 1}` }));
const q = (text: string, extra: Record<string, unknown> = {}) => ({ question: text, options: opts(2), ...extra });

function setup(
  o: {
    mode?: PermissionMode;
    nonInteractive?: boolean;
    port?: boolean;
    answer?: (r: QuestionRequest) => QuestionResponse | Promise<QuestionResponse>;
  } = {},
) {
  const harness = makeToolHarness();
  const asked: QuestionRequest[] = [];
  const port: InteractionPort = {
    reviewPlan: async () => ({ decision: 'reject' }),
    askQuestions: async (r) => {
      asked.push(r);
      return o.answer
        ? o.answer(r)
        : {
            answers: r.questions.map((x) => ({
              question: x.question,
              kind: 'single' as const,
              selected: [x.options[0].label],
            })),
          };
    },
  };
  const session = { state: { mode: o.mode ?? 'manual' } } as unknown as Session;
  const asker = new QuestionAsker(session, o.port === false ? undefined : port, o.nonInteractive ?? false);
  const submitted: StepRequest[] = [];
  asker.bind({ submit: (r: StepRequest) => submitted.push(r) } as unknown as Agent);
  harness.register(QUESTION_SERVICE, asker);
  return { harness, asked, submitted, asker };
}

describe('AskUserQuestion validation', () => {
  it.each([
    ['no questions', { questions: [] }, 'at least 1 question'],
    ['five questions', { questions: ['A?', 'B?', 'C?', 'D?', 'E?'].map((t) => q(t)) }, 'at most 4 questions'],
    ['one option', { questions: [{ question: 'A?', options: opts(1) }] }, 'at least 2 options'],
    ['five options', { questions: [{ question: 'A?', options: opts(5) }] }, 'at most 4 options'],
    ['a question without "?"', { questions: [q('Which one')] }, 'must end with "?"'],
    [
      `a header over ${MAX_HEADER_CHARS} characters`,
      { questions: [q('A?', { header: 'x'.repeat(13) })] },
      'header must be at most 12',
    ],
    ['duplicate questions', { questions: [q('Same?'), q('Same?')] }, 'questions must be unique'],
    [
      'duplicate option labels',
      {
        questions: [
          {
            question: 'A?',
            options: [
              { label: 'X', description: '1' },
              { label: 'X', description: '2' },
            ],
          },
        ],
      },
      'option labels must be unique',
    ],
    [
      'an own "Other" option',
      {
        questions: [
          {
            question: 'A?',
            options: [
              { label: 'Yes', description: '' },
              { label: 'Other', description: '' },
            ],
          },
        ],
      },
      'added automatically',
    ],
  ])('rejects %s', async (_name, args, message) => {
    const { harness, asked } = setup();
    const r = await harness.run(askUserQuestionTool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
    expect(asked).toEqual([]);
  });

  it('accepts the limits: 1 and 4 questions, 2 and 4 options, a 12-character header', async () => {
    const { harness, asked } = setup();
    expect(
      (await harness.run(askUserQuestionTool, { questions: [q('A?', { header: 'x'.repeat(12) })] })).isError,
    ).toBeFalsy();
    const four = ['A?', 'B?', 'C?', 'D?'].map((t) => ({ question: t, options: opts(4) }));
    expect((await harness.run(askUserQuestionTool, { questions: four })).isError).toBeFalsy();
    expect(asked).toHaveLength(2);
  });

  it('its description stays small and states the limits', () => {
    expect(askUserQuestionTool.renderedDescription.length).toBeLessThanOrEqual(1_200);
    expect(askUserQuestionTool.renderedDescription).toContain('1–4 questions');
  });

  it('appends "Other" to every question and defaults multi_select to false', async () => {
    const { harness, asked } = setup();
    await harness.run(askUserQuestionTool, { questions: [q('A?'), q('B?', { multi_select: true })] });
    const [req] = asked;
    expect(req.background).toBe(false);
    expect(req.questions.map((x) => x.options.map((o) => o.label))).toEqual([
      ['Option 1', 'Option 2', 'Other'],
      ['Option 1', 'Option 2', 'Other'],
    ]);
    expect(req.questions.map((x) => x.multiSelect)).toEqual([false, true]);
  });
});

describe('AskUserQuestion answers', () => {
  it('feeds back question text and the labels picked, for every answer kind', async () => {
    const { harness } = setup({
      answer: () => ({
        answers: [
          { question: 'DB?', kind: 'single', selected: ['Postgres'] },
          { question: 'Features?', kind: 'multi', selected: ['Auth', 'Search'] },
          { question: 'Host?', kind: 'other', selected: [], other: 'fly.io' },
          { question: 'Langs?', kind: 'multi_with_other', selected: ['TS'], other: 'Zig' },
          { question: 'Name?', kind: 'skipped', selected: [] },
        ],
      }),
    });
    const r = await harness.run(askUserQuestionTool, { questions: [q('A?')] });
    expect(r.isError).toBeFalsy();
    expect(r.text).toBe(
      [
        'The user answered:',
        '- "DB?" → Postgres',
        '- "Features?" → Auth, Search',
        '- "Host?" → Other: "fly.io"',
        '- "Langs?" → TS, Other: "Zig"',
        '- "Name?" → (skipped: no answer)',
      ].join('\n'),
    );
  });

  it('a dismissed question means the user declined; no option is assumed', async () => {
    const { harness } = setup({ answer: () => ({ dismissed: true }) });
    const r = await harness.run(askUserQuestionTool, { questions: [q('A?')] });
    expect(r.text).toContain('declined');
    expect(r.text).toContain('Do not assume any option');
    expect(formatAnswers({ dismissed: true })).toBe(r.text);
  });

  it('is denied in auto mode, without asking', async () => {
    const { harness, asked } = setup({ mode: 'auto' });
    const r = await harness.run(askUserQuestionTool, { questions: [q('A?')] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/denied.*auto permission mode/);
    expect(asked).toEqual([]);
  });

  it.each([
    ['print mode / no TTY', { nonInteractive: true }],
    ['no InteractionPort', { port: false }],
  ])('fails with "ask in plain text" when the host cannot ask (%s)', async (_name, o) => {
    const { harness } = setup(o);
    const r = await harness.run(askUserQuestionTool, { questions: [q('A?')] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('not available');
    expect(r.text).toContain('plain text');
    const bg = await harness.run(askUserQuestionTool, { questions: [q('A?')], background: true });
    expect(bg.text).toContain('plain text');
  });

  it('background: returns a task id at once and delivers the answers as a notification', async () => {
    let release!: (r: QuestionResponse) => void;
    const { harness, asked, submitted } = setup({ answer: () => new Promise((r) => (release = r)) });
    const r = await harness.run(askUserQuestionTool, { questions: [q('Color?')], background: true });
    const taskId = /task (q[0-9a-f]+)/.exec(r.text)?.[1];
    expect(taskId).toBeDefined();
    expect(asked[0]).toMatchObject({ background: true, taskId });
    expect(submitted).toEqual([]);
    release({ answers: [{ question: 'Color?', kind: 'single', selected: ['Blue'] }] });
    await new Promise((res) => setTimeout(res, 10));
    expect(submitted).toEqual([
      {
        kind: 'notification',
        text: `Background question task ${taskId} finished.\nThe user answered:\n- "Color?" → Blue`,
      },
    ]);
  });

  it('background questions still open at session close are withdrawn without a notification', async () => {
    const { harness, submitted, asker } = setup({
      answer: (req) => new Promise((_res, rej) => setTimeout(() => rej(new Error(`withdrawn ${req.taskId}`)), 5)),
    });
    await harness.run(askUserQuestionTool, { questions: [q('A?')], background: true });
    asker.close();
    await new Promise((res) => setTimeout(res, 20));
    expect(submitted).toEqual([]);
  });
});
