// ask_user (docs/browser.md): the answer shapes, the 5-minute timeout, cancel, several answers as a JSON
// array string, the automatic free-text choice, and hosts where no one can answer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASK_USER_TIMEOUT_MS, askUserTool } from '../../../src/tools/browser/askUserTool';
import {
  QUESTION_SERVICE,
  type AskOutcome,
  type QuestionRequest,
  type QuestionService,
} from '../../../src/tools/question/questionService';
import { makeToolHarness } from '../../helpers/toolHarness';

type Answerer = (request: Omit<QuestionRequest, 'background' | 'taskId'>, signal: AbortSignal) => Promise<AskOutcome>;

function harnessWith(answer: Answerer) {
  const asked: Array<Omit<QuestionRequest, 'background' | 'taskId'>> = [];
  const h = makeToolHarness();
  const service: QuestionService = {
    ask: (request, signal) => (asked.push(request), answer(request, signal)),
    askInBackground: () => ({ status: 'unavailable', reason: 'not used' }),
  };
  h.register(QUESTION_SERVICE, service);
  return { h, asked };
}

/** Never answers; settles as dismissed when the question is withdrawn (as the UI's queue does). */
const waitsForever: Answerer = (_r, signal) =>
  new Promise((resolve) => {
    const withdrawn = () => resolve({ status: 'answered', response: { dismissed: true } });
    if (signal.aborted) withdrawn();
    else signal.addEventListener('abort', withdrawn, { once: true });
  });

afterEach(() => vi.useRealTimers());

describe('ask_user', () => {
  it('a picked option comes back as {answer}; the options are offered with a free-text choice after them', async () => {
    const { h, asked } = harnessWith(async (r) => ({
      status: 'answered',
      response: { answers: [{ question: r.questions[0].question, kind: 'single', selected: ['Staging'] }] },
    }));
    const r = await h.run(askUserTool, { question: 'Which environment?', options: ['Staging', 'Production'] });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(r.text)).toEqual({ answer: 'Staging' });
    expect(asked[0].questions[0].options.map((o) => o.label)).toEqual(['Staging', 'Production', 'Other']);
    expect(asked[0].questions[0].multiSelect).toBe(false);
  });

  it("several picks arrive as a JSON-encoded array string; the user's own words count as an answer", async () => {
    const multi = harnessWith(async (r) => ({
      status: 'answered',
      response: {
        answers: [
          { question: r.questions[0].question, kind: 'multi_with_other', selected: ['A', 'B'], other: 'C too' },
        ],
      },
    }));
    const r = await multi.h.run(askUserTool, { question: 'Which ones?', options: ['A', 'B', 'D'], multiple: true });
    expect(JSON.parse(r.text)).toEqual({ answer: '["A","B","C too"]' });
    expect(multi.asked[0].questions[0].multiSelect).toBe(true);

    const free = harnessWith(async (r) => ({
      status: 'answered',
      response: {
        answers: [{ question: r.questions[0].question, kind: 'other', selected: [], other: 'the blue one' }],
      },
    }));
    expect(JSON.parse((await free.h.run(askUserTool, { question: 'Which colour?' })).text)).toEqual({
      answer: 'the blue one',
    });
    expect(free.asked[0].questions[0].options.map((o) => o.label)).toEqual(['Other']);
  });

  it('no answer after exactly 5 minutes → {answer: null, reason: "timeout"}', async () => {
    vi.useFakeTimers();
    const { h } = harnessWith(waitsForever);
    const pending = h.run(askUserTool, { question: 'Still there?' });
    await vi.advanceTimersByTimeAsync(ASK_USER_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(JSON.parse((await pending).text)).toEqual({ answer: null, reason: 'timeout' });
    expect(ASK_USER_TIMEOUT_MS).toBe(300_000);
  });

  it('a cancelled turn → reason "aborted"; a dismissed dialog → reason "dismissed"', async () => {
    const { h } = harnessWith(waitsForever);
    const controller = new AbortController();
    const pending = h.run(askUserTool, { question: 'Go on?' }, { signal: controller.signal });
    controller.abort();
    expect(JSON.parse((await pending).text)).toEqual({ answer: null, reason: 'aborted' });

    const dismissed = harnessWith(async () => ({ status: 'answered', response: { dismissed: true } }));
    expect(JSON.parse((await dismissed.h.run(askUserTool, { question: 'Go on?' })).text)).toEqual({
      answer: null,
      reason: 'dismissed',
    });
  });

  it('where no one can answer it is not offered, and a call made anyway answers non_interactive', async () => {
    expect(askUserTool.isAvailable?.({ capabilities: [], nonInteractive: true })).toBe(false);
    expect(askUserTool.isAvailable?.({ capabilities: [], nonInteractive: false })).toBe(true);
    const { h } = harnessWith(async () => ({ status: 'unavailable', reason: 'print mode' }));
    expect(JSON.parse((await h.run(askUserTool, { question: 'Anyone?' })).text)).toEqual({
      answer: null,
      reason: 'non_interactive',
    });
  });

  it('rejects an empty question and duplicate options', async () => {
    const { h } = harnessWith(waitsForever);
    expect((await h.run(askUserTool, { question: '  ' })).isError).toBe(true);
    const dup = await h.run(askUserTool, { question: 'Pick?', options: ['a', 'A'] });
    expect(dup.isError).toBe(true);
    expect(dup.text).toMatch(/options must be unique/);
  });
});
