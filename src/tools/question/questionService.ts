// AskUserQuestion as the tool sees it. The engine implements the service (engine/delegation/interactions.ts)
// over the front end's InteractionPort; print mode and hosts without one cannot ask.
import { serviceKey } from '../defineTool';

export const MIN_QUESTIONS = 1;
export const MAX_QUESTIONS = 4;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 4;
export const MAX_HEADER_CHARS = 12;
export const OTHER_LABEL = 'Other';

export interface QuestionOption {
  label: string;
  description: string;
}

export interface Question {
  question: string;
  /** Short chip shown above the question (≤ 12 characters). */
  header?: string;
  /** The agent's options followed by the automatic "Other". */
  options: QuestionOption[];
  multiSelect: boolean;
}

export interface QuestionRequest {
  questions: Question[];
  /** Asked as a background task: the agent keeps working, answers come back as a notification. */
  background: boolean;
  /** Set for background questions. */
  taskId?: string;
}

export type AnswerKind = 'single' | 'multi' | 'other' | 'multi_with_other' | 'skipped';

export interface QuestionAnswer {
  question: string;
  kind: AnswerKind;
  /** Labels of the options picked (not "Other"). */
  selected: string[];
  /** The user's own text when they picked "Other". */
  other?: string;
}

/** `dismissed`: the user closed the dialog — they declined to answer. */
export type QuestionResponse = { answers: QuestionAnswer[] } | { dismissed: true };

export type AskOutcome =
  | { status: 'answered'; response: QuestionResponse }
  /** The host cannot ask (print mode, no terminal, no interactive front end). */
  | { status: 'unavailable'; reason: string }
  /** The permission mode forbids asking (auto mode). */
  | { status: 'denied'; reason: string };

export type BackgroundAskOutcome = { status: 'started'; taskId: string } | Exclude<AskOutcome, { status: 'answered' }>;

export interface QuestionService {
  ask(request: Omit<QuestionRequest, 'background' | 'taskId'>, signal: AbortSignal): Promise<AskOutcome>;
  /** Starts asking and returns at once; the answers reach the agent as a notification. */
  askInBackground(request: Omit<QuestionRequest, 'background' | 'taskId'>): BackgroundAskOutcome;
}

export const QUESTION_SERVICE = serviceKey<QuestionService>()('questions');

function answerLine(a: QuestionAnswer): string {
  const other = a.other !== undefined ? `${OTHER_LABEL}: "${a.other}"` : undefined;
  switch (a.kind) {
    case 'skipped':
      return `- "${a.question}" → (skipped: no answer)`;
    case 'other':
      return `- "${a.question}" → ${other ?? OTHER_LABEL}`;
    default:
      return `- "${a.question}" → ${[...a.selected, ...(other ? [other] : [])].join(', ') || '(nothing selected)'}`;
  }
}

/** The answers as the model reads them: each question's text and the labels picked. */
export function formatAnswers(response: QuestionResponse): string {
  if ('dismissed' in response) {
    return 'The user dismissed the questions without answering: they declined. Do not assume any option; continue with what you know, or ask in plain text if you cannot.';
  }
  return ['The user answered:', ...response.answers.map(answerLine)].join('\n');
}
