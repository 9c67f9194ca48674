// A structured final answer (docs/print-mode.md "Structured output"): `jarvis -p --output-schema schema.json`, the
// SDK's `outputSchema`. The model is told the schema in the prompt and offered a final-answer tool whose arguments
// are the answer (StructuredOutput); a model that cannot call tools may answer with the JSON document as its text
// instead. Either way the answer is validated against the schema; one that does not satisfy it is sent back with
// the reasons, at most `maxRetries` times (the model and the user are told the bound), and then the turn fails and
// the run's outcome is `schema_failed` with the validation errors. An accepted answer ends the turn at once.
//
// `prepareOutputContract` checks the schema itself first (its meta-schema, then a strict compile: an unknown
// keyword is a mistake, not something to ignore) and throws an OutputSchemaError that says what is wrong.
import type { ValidateFunction } from 'ajv';
import { z } from 'zod';
import { defineTool, renderTemplate, type Tool } from '../../tools/defineTool';
import { ajvIssues, createJsonSchemaValidators, dialectOf } from '../../tools/jsonSchemaValidators';
import type { TurnEnd, TurnExtension } from './turnExtension';
import toolText from './structuredOutputTool.md';
import promptText from './structuredOutputPrompt.md';

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';
/** How many times an answer that does not satisfy the schema is sent back, by default. */
export const DEFAULT_OUTPUT_SCHEMA_RETRIES = 3;

/** The option print mode and the SDK pass (`--output-schema`, `outputSchema`). */
export interface OutputSchemaOption {
  /** The JSON Schema (draft-07 or 2020-12; `$schema` picks, 2020-12 when absent) the final answer must satisfy. */
  schema: Record<string, unknown>;
  /** Answers sent back before the run fails (default 3, so at most 4 answers are judged). */
  maxRetries?: number;
}

/** The schema cannot be used: not JSON Schema, or not one this validator can compile. */
export class OutputSchemaError extends Error {}

/** What the run's final answer came to. */
export type StructuredOutcome =
  | { status: 'accepted'; value: unknown; via: 'tool' | 'text' }
  | { status: 'failed'; errors: string[]; answers: number }
  /** No final answer was judged (the turn ended some other way first). */
  | { status: 'none' };

/** `onRejected`: told each time an answer is sent back (print mode writes it on stderr). */
export async function prepareOutputContract(
  option: OutputSchemaOption,
  onRejected: (text: string) => void = () => undefined,
): Promise<OutputContract> {
  const schema = option.schema as unknown;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    throw new OutputSchemaError(
      'the output schema must be a JSON object (a JSON Schema), not a list or a single value',
    );
  const retries = option.maxRetries ?? DEFAULT_OUTPUT_SCHEMA_RETRIES;
  if (!Number.isInteger(retries) || retries < 0)
    throw new OutputSchemaError(`maxRetries must be a whole number ≥ 0, got ${JSON.stringify(option.maxRetries)}`);
  const { ajv, body } = dialectOf(option.schema, await createJsonSchemaValidators(true));
  if (!ajv.validateSchema(body)) {
    // The meta-schema's alternatives (a type is a name or a list of names) each add an error: one per place is enough.
    const seen = new Set<string>();
    const errors = (ajv.errors ?? []).filter(
      (e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && !seen.has(e.instancePath) && seen.add(e.instancePath),
    );
    const issues = ajvIssues(errors, 'a schema').map((i) => `${pointer(i.path)}: ${i.message}`);
    throw new OutputSchemaError(`it is not valid JSON Schema:\n- ${issues.join('\n- ')}`);
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(body);
  } catch (e) {
    throw new OutputSchemaError(`it cannot be used: ${e instanceof Error ? e.message : String(e)}`);
  }
  return new OutputContract(option.schema, validate, retries + 1, onRejected);
}

/** `4 answers`, `1 answer`. */
function answers(n: number): string {
  return `${n} answer${n === 1 ? '' : 's'}`;
}

/** Where in a JSON document: `/items/0/name`, or `(top level)`. */
function pointer(path: readonly string[]): string {
  return path.length ? `/${path.join('/')}` : '(top level)';
}

/** The text of a final answer as a JSON value: the whole text, or its one fenced code block. */
export function answerFromText(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const trimmed = text.trim();
  const attempt = (source: string) => {
    try {
      return { ok: true as const, value: JSON.parse(source) as unknown };
    } catch {
      return undefined;
    }
  };
  const whole = attempt(trimmed);
  if (whole) return whole;
  const blocks = [...trimmed.matchAll(/```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/g)].map((m) => m[1]);
  if (blocks.length === 1) {
    const block = attempt(blocks[0].trim());
    if (block) return block;
    return { ok: false, problem: 'the code block in the answer is not valid JSON' };
  }
  if (blocks.length > 1)
    return { ok: false, problem: `the answer has ${blocks.length} code blocks; give exactly one JSON document` };
  return { ok: false, problem: 'the answer is not a JSON document' };
}

export class OutputContract {
  readonly tool: Tool;
  readonly extension: TurnExtension;
  /** Whether the tool's arguments are the answer itself (an object schema) or carry it in `value`. */
  private readonly wrapped: boolean;
  private accepted: { value: unknown; via: 'tool' | 'text' } | undefined;
  private failure: { errors: string[]; answers: number } | undefined;
  /** This turn's state: answers judged, and whether it was settled (accepted, or out of answers). */
  private answers = 0;
  private settled: 'accepted' | 'exhausted' | undefined;
  private lastErrors: string[] = [];

  constructor(
    readonly schema: Record<string, unknown>,
    private readonly validate: ValidateFunction,
    /** Answers judged per turn before it fails. */
    readonly maxAnswers: number,
    private readonly onRejected: (text: string) => void = () => undefined,
  ) {
    const { $schema: _dialect, $id: _id, ...body } = schema;
    this.wrapped = body.type !== 'object';
    const parameters = this.wrapped
      ? { type: 'object', properties: { value: body }, required: ['value'], additionalProperties: false }
      : body;
    const base = defineTool({
      name: STRUCTURED_OUTPUT_TOOL,
      description: toolText,
      constants: { ANSWERS: answers(maxAnswers) },
      // Any object reaches `execute`, which judges it against the schema and counts the answer.
      schema: z.record(z.string(), z.unknown()),
      readOnly: true,
      defaultApproval: 'auto',
      execute: async (args) => this.handIn(this.wrapped ? (args as Record<string, unknown>).value : args),
    });
    this.tool = { ...base, jsonSchema: parameters };
    this.extension = {
      promptSubmit: async (prompt) => ({ addContext: prompt.isSteer ? [] : [this.instruction()] }),
      beforeStop: async (facts) => this.judgeText(facts.text),
      endTurn: (_agent, at) => this.endOf(at),
      afterTurn: () => {
        this.answers = 0;
        this.settled = undefined;
        this.lastErrors = [];
      },
    };
  }

  /** The run's final answer: the last one accepted, unless a later turn ran out of answers. */
  outcome(): StructuredOutcome {
    if (this.failure) return { status: 'failed', ...this.failure };
    if (this.accepted) return { status: 'accepted', ...this.accepted };
    return { status: 'none' };
  }

  /** What the prompt carries: the schema, how to hand the answer in, and the bound. */
  instruction(): string {
    return renderTemplate(promptText.trim(), {
      SCHEMA: JSON.stringify(this.schema, null, 2),
      TOOL: STRUCTURED_OUTPUT_TOOL,
      HOW: this.wrapped ? 'the answer in its `value` field' : 'the answer as its arguments',
      ANSWERS: answers(this.maxAnswers),
    });
  }

  /** A StructuredOutput call: its answer is judged like a text answer, and the turn ends once it is accepted. */
  private handIn(value: unknown): { content: string; isError?: boolean } {
    if (this.settled === 'accepted') return { content: 'Not judged: an answer was already accepted.' };
    if (this.settled) return { content: 'Not judged: no answers are left; the run fails.', isError: true };
    const errors = this.check(value);
    if (!errors.length) {
      this.accept(value, 'tool');
      return { content: 'Accepted. This request is complete.' };
    }
    return { content: this.rejection(errors), isError: true };
  }

  /** A final text answer: accepted when it is JSON that satisfies the schema; otherwise sent back, or the end. */
  private async judgeText(text: string): Promise<string | undefined> {
    if (this.settled) return undefined;
    const parsed = answerFromText(text);
    let errors: string[];
    if (parsed.ok) errors = this.check(parsed.value);
    else {
      this.answers++;
      errors = [parsed.problem];
    }
    if (parsed.ok && !errors.length) {
      this.accept(parsed.value, 'text');
      return undefined;
    }
    const message = this.rejection(errors);
    return this.settled === 'exhausted' ? undefined : message;
  }

  /** Counts one answer and returns what is wrong with it (empty: it satisfies the schema). */
  private check(value: unknown): string[] {
    this.answers++;
    if (this.validate(value)) return [];
    return ajvIssues(this.validate.errors ?? [], 'the schema').map(
      (issue) => `${pointer(issue.path)}: ${issue.message}`,
    );
  }

  private accept(value: unknown, via: 'tool' | 'text'): void {
    this.settled = 'accepted';
    this.accepted = { value, via };
    this.failure = undefined;
  }

  /** What the model reads about a rejected answer; the turn's last answer settles it as a failure. */
  private rejection(errors: string[]): string {
    this.lastErrors = errors;
    const list = errors.map((e) => `- ${e}`).join('\n');
    if (this.answers >= this.maxAnswers) {
      this.settled = 'exhausted';
      this.failure = { errors, answers: this.answers };
      return `The answer does not satisfy the output schema:\n${list}\nThat was the last of ${this.maxAnswers} answers; the run fails.`;
    }
    const left = this.maxAnswers - this.answers;
    this.onRejected(
      `the answer does not satisfy the output schema (answer ${this.answers} of at most ${this.maxAnswers}); ` +
        `it was sent back: ${errors.join('; ')}`,
    );
    return (
      `The answer does not satisfy the output schema (answer ${this.answers} of at most ${this.maxAnswers}):\n${list}\n` +
      `Hand in a corrected answer with ${STRUCTURED_OUTPUT_TOOL}, or reply with only the JSON document. ` +
      (left === 1 ? 'This is the last answer that will be judged.' : `${left} answers are left.`)
    );
  }

  private endOf(at: 'request' | 'answer'): TurnEnd | undefined {
    if (this.settled === 'accepted') return at === 'request' ? { reason: 'completed' } : undefined;
    if (this.settled !== 'exhausted') return undefined;
    const error =
      `The final answer did not satisfy the output schema after ${this.answers} answer${this.answers === 1 ? '' : 's'}: ` +
      this.lastErrors.join('; ');
    return { reason: 'failed', error };
  }
}
