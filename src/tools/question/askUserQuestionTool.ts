// AskUserQuestion: structured multiple-choice questions to the user, through the front end.
// Auto mode denies it; hosts that cannot ask return a failure telling the model to ask in text.
import { z } from 'zod';
import { defineTool, type ToolResult } from '../defineTool';
import description from './askUserQuestion.md';
import {
  formatAnswers,
  MAX_HEADER_CHARS,
  MAX_OPTIONS,
  MAX_QUESTIONS,
  MIN_OPTIONS,
  MIN_QUESTIONS,
  OTHER_LABEL,
  QUESTION_SERVICE,
  type AskOutcome,
  type BackgroundAskOutcome,
  type Question,
} from './questionService';

// The tool's .md documents every field; the schema carries no per-field text to keep requests small.
const unique = (values: string[]) => new Set(values.map((v) => v.trim().toLowerCase())).size === values.length;

const option = z.object({
  label: z
    .string()
    .trim()
    .min(1, 'label must not be empty')
    .refine(
      (l) => l.toLowerCase() !== OTHER_LABEL.toLowerCase(),
      `"${OTHER_LABEL}" is added automatically; do not include it`,
    ),
  description: z.string(),
});

const question = z.object({
  question: z
    .string()
    .trim()
    .min(1, 'question must not be empty')
    .refine((q) => q.endsWith('?'), 'question must end with "?"'),
  header: z.string().trim().max(MAX_HEADER_CHARS, `header must be at most ${MAX_HEADER_CHARS} characters`).optional(),
  options: z
    .array(option)
    .min(MIN_OPTIONS, `each question needs at least ${MIN_OPTIONS} options`)
    .max(MAX_OPTIONS, `each question takes at most ${MAX_OPTIONS} options`)
    .refine((opts) => unique(opts.map((o) => o.label)), 'option labels must be unique within a question'),
  multi_select: z.boolean().default(false),
});

const schema = z.object({
  questions: z
    .array(question)
    .min(MIN_QUESTIONS, `ask at least ${MIN_QUESTIONS} question`)
    .max(MAX_QUESTIONS, `ask at most ${MAX_QUESTIONS} questions per call`)
    .refine((qs) => unique(qs.map((q) => q.question)), 'questions must be unique within a call'),
  background: z.boolean().default(false),
});

function notAnswered(
  outcome: Exclude<AskOutcome | BackgroundAskOutcome, { status: 'answered' } | { status: 'started' }>,
): ToolResult {
  if (outcome.status === 'denied') {
    return {
      content: `AskUserQuestion is denied: ${outcome.reason} Decide yourself with your best judgement and state the assumptions you made.`,
      isError: true,
    };
  }
  return {
    content: `AskUserQuestion is not available: ${outcome.reason} Ask the user directly in plain text in your reply instead.`,
    isError: true,
  };
}

export const askUserQuestionTool = defineTool({
  name: 'AskUserQuestion',
  services: [QUESTION_SERVICE],
  description,
  constants: { MIN_QUESTIONS, MAX_QUESTIONS, MIN_OPTIONS, MAX_OPTIONS, MAX_HEADER_CHARS, OTHER_LABEL },
  schema,
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const questions: Question[] = args.questions.map((q) => ({
      question: q.question,
      ...(q.header ? { header: q.header } : {}),
      options: [...q.options, { label: OTHER_LABEL, description: 'Type your own answer.' }],
      multiSelect: q.multi_select,
    }));
    const service = ctx.services.get(QUESTION_SERVICE);
    if (args.background) {
      const started = service.askInBackground({ questions });
      if (started.status !== 'started') return notAnswered(started);
      return {
        content: `Started background question task ${started.taskId}. Keep working; the user's answers will arrive as a notification.`,
        summary: `Question task ${started.taskId}`,
      };
    }
    const outcome = await service.ask({ questions }, ctx.signal);
    if (outcome.status !== 'answered') return notAnswered(outcome);
    const dismissed = 'dismissed' in outcome.response;
    return { content: formatAnswers(outcome.response), summary: dismissed ? 'Questions dismissed' : 'User answered' };
  },
});
