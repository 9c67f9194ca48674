// ask_user (docs/browser.md): the browser profile's one-question form of AskUserQuestion, on the same
// question service, with the result shape of the browser tool set: `{answer}` or `{answer: null, reason}`.
// Not offered where no one can answer; a call made anyway gets reason `non_interactive`.
import { z } from 'zod';
import { defineTool, type ToolResult } from '../defineTool';
import { OTHER_LABEL, QUESTION_SERVICE, type QuestionAnswer } from '../question/questionService';
import description from './askUser.md';

/** How long the question waits for an answer. */
export const ASK_USER_TIMEOUT_MS = 5 * 60_000;

const schema = z.object({
  question: z.string().trim().min(1, 'question must not be empty'),
  options: z
    .array(z.string().trim().min(1, 'an option must not be empty'))
    .max(8, 'offer at most 8 options')
    .refine((o) => new Set(o.map((x) => x.toLowerCase())).size === o.length, 'options must be unique')
    .optional(),
  multiple: z.boolean().default(false),
});

type Reply =
  { answer: string } | { answer: null; reason: 'timeout' | 'aborted' | 'dismissed' | 'non_interactive' | 'denied' };

const reply = (value: Reply, summary: string): ToolResult => ({ content: JSON.stringify(value), summary });

/** The answer text: the picked option, a JSON array string for several, or the user's own words. */
function answerText(a: QuestionAnswer, multiple: boolean): string {
  const picked = [...a.selected, ...(a.other !== undefined ? [a.other] : [])];
  return multiple ? JSON.stringify(picked) : (picked[0] ?? '');
}

export const askUserTool = defineTool({
  name: 'ask_user',
  services: [QUESTION_SERVICE],
  description,
  schema,
  readOnly: true,
  defaultApproval: 'auto',
  isAvailable: (env) => !env.nonInteractive,
  async execute(args, ctx) {
    const options = (args.options ?? []).filter((o) => o.toLowerCase() !== OTHER_LABEL.toLowerCase());
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), ASK_USER_TIMEOUT_MS);
    const signal = AbortSignal.any([ctx.signal, timeout.signal]);
    // A withdrawn question (cancelled turn or timer) may settle as dismissed or throw: either way, say why.
    const withdrawn = (): ToolResult | undefined =>
      ctx.signal.aborted
        ? reply({ answer: null, reason: 'aborted' }, 'The question was cancelled')
        : timeout.signal.aborted
          ? reply({ answer: null, reason: 'timeout' }, 'No answer within 5 minutes')
          : undefined;
    try {
      const outcome = await ctx.services.get(QUESTION_SERVICE).ask(
        {
          questions: [
            {
              question: args.question,
              options: [
                ...options.map((label) => ({ label, description: '' })),
                { label: OTHER_LABEL, description: 'Type your own answer.' },
              ],
              multiSelect: args.multiple,
            },
          ],
        },
        signal,
      );
      const stopped = withdrawn();
      if (stopped) return stopped;
      if (outcome.status === 'unavailable')
        return reply({ answer: null, reason: 'non_interactive' }, 'No one can answer');
      if (outcome.status === 'denied')
        return reply({ answer: null, reason: 'denied' }, 'Asking is not allowed in this mode');
      const response = outcome.response;
      if ('dismissed' in response)
        return reply({ answer: null, reason: 'dismissed' }, 'The user dismissed the question');
      const first = response.answers[0];
      if (!first || first.kind === 'skipped')
        return reply({ answer: null, reason: 'dismissed' }, 'The user did not answer');
      return reply({ answer: answerText(first, args.multiple) }, 'The user answered');
    } catch (e) {
      const stopped = withdrawn();
      if (stopped) return stopped;
      throw e;
    } finally {
      clearTimeout(timer);
    }
  },
});
