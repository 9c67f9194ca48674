// Where print mode's prompt comes from (docs/print-mode.md "Input"): `-p "<question>"` with text piped
// on stdin sends both — the piped text as context, the argument as the question; `-p -`, a bare `-p`
// or no `-p` with a pipe read the whole prompt from stdin. A terminal on stdin is never read.
import { fstatSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { estimateTokens } from '../llm/tokens';

/** After this long with standard input still open, say that we are waiting for it. */
const STDIN_NOTICE_MS = 3_000;

export interface PrintInput {
  /** The `-p` value: text, `true` for a bare `-p`, `'-'` for stdin; undefined without `-p`. */
  prompt: string | true | undefined;
  stdin: Readable & { isTTY?: boolean; fd?: number };
  stderr: { write(s: string): void };
}

export type PromptResult =
  { ok: true; prompt: string; question?: string; piped?: string } | { ok: false; message: string };

/** Share of the model's window the request may fill (system prompt, tools and prompt); the rest is for the answer. */
export const PROMPT_WINDOW_SHARE = 0.75;

/** True when stdin is something a caller piped or redirected (a pipe, socket or file), not a terminal or /dev/null. */
function stdinIsPiped(stdin: PrintInput['stdin']): boolean {
  if (stdin.isTTY) return false;
  try {
    const info = fstatSync(stdin.fd ?? 0);
    return info.isFIFO() || info.isFile() || info.isSocket();
  } catch {
    return false; // stdin closed
  }
}

async function readAll(stdin: Readable, stderr: PrintInput['stderr'], why: string): Promise<string> {
  const chunks: Buffer[] = [];
  const notice = setTimeout(() => {
    stderr.write(
      `jarvis: waiting for standard input to end (${why}); end it with Ctrl-D, or run with </dev/null to send nothing.\n`,
    );
  }, STDIN_NOTICE_MS);
  notice.unref();
  try {
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  } finally {
    clearTimeout(notice);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The piped text as context, then the question. */
export function combinePrompt(question: string, piped: string): string {
  return `The following text was piped to jarvis on standard input:\n<stdin>\n${piped.replace(/\n$/, '')}\n</stdin>\n\n${question}`;
}

export async function resolvePrintPrompt(input: PrintInput): Promise<PromptResult> {
  const { prompt, stdin, stderr } = input;
  const fromStdin = prompt === undefined || prompt === true || prompt === '-';
  if (fromStdin) {
    if (stdin.isTTY) {
      return {
        ok: false,
        message:
          'jarvis: -p without a prompt reads it from standard input, but standard input is a terminal. Pass it with -p "<task>" or pipe it in.',
      };
    }
    const text = stdinIsPiped(stdin) ? await readAll(stdin, stderr, 'it is the prompt') : '';
    if (!text.trim())
      return { ok: false, message: 'jarvis: the prompt is empty. Pass it with -p "<task>" or on standard input.' };
    return { ok: true, prompt: text };
  }
  if (!prompt.trim())
    return { ok: false, message: 'jarvis: the prompt is empty. Pass it with -p "<task>" or on standard input.' };
  if (!stdinIsPiped(stdin)) return { ok: true, prompt };
  const piped = await readAll(stdin, stderr, 'piped text is sent with the prompt');
  return piped.trim()
    ? { ok: true, prompt: combinePrompt(prompt, piped), question: prompt, piped }
    : { ok: true, prompt };
}

const tokensText = (n: number) => `${n} ${n === 1 ? 'token' : 'tokens'}`;

/**
 * Why a prompt cannot be sent, with the figures: either the system prompt and tool definitions alone fill the
 * share of the window a request may use, or the prompt is larger than what they leave; and what to do about it.
 */
export function windowRefusal(m: { window: number; name: string; frameTokens: number; promptTokens: number }): string {
  const budget = Math.floor(m.window * PROMPT_WINDOW_SHARE);
  const sizes =
    `model "${m.name}" has a ${m.window}-token window, of which a request may fill about ${tokensText(budget)} ` +
    `(the rest is kept for the answer)`;
  if (m.frameTokens >= budget)
    return (
      `jarvis: the system prompt and tool definitions alone are about ${tokensText(m.frameTokens)}, and ${sizes}, ` +
      `so no prompt fits. Use a model with a larger window, or fewer tools: turn off plugins or MCP servers ` +
      `(see jarvis plugin list and jarvis mcp list).`
    );
  return (
    `jarvis: the prompt is about ${tokensText(m.promptTokens)}, but ${sizes}; the system prompt and tools take ` +
    `about ${tokensText(m.frameTokens)} of it, which leaves about ${tokensText(budget - m.frameTokens)} for the ` +
    `prompt. Shorten it, save the text to a file and ask jarvis to read the parts it needs, ` +
    `or use a model with a larger window.`
  );
}

/**
 * A prompt larger than the model's window is handled in the open: piped context is cut to its last
 * part (where a log's failure usually is) with a note on stderr; a prompt that is too large by itself
 * is refused with a message, never sent to fail at the provider.
 */
export function fitPromptToWindow(
  input: Extract<PromptResult, { ok: true }>,
  model: { window: number; name: string; frameTokens: number },
  stderr: PrintInput['stderr'],
): PromptResult {
  const { window, name: modelName } = model;
  const limit = Math.floor(window * PROMPT_WINDOW_SHARE) - model.frameTokens;
  const tokens = estimateTokens(input.prompt);
  if (tokens <= limit) return input;
  const room = limit - estimateTokens(combinePrompt(input.question ?? '', ''));
  if (input.piped === undefined || input.question === undefined || room <= 0) {
    return { ok: false, message: windowRefusal({ ...model, promptTokens: tokens }) };
  }
  // Characters per token vary with the text: shrink proportionally until the estimate fits.
  let kept = input.piped;
  while (estimateTokens(kept) > room && kept.length > 0)
    kept = kept.slice(kept.length - Math.floor(((kept.length * room) / estimateTokens(kept)) * 0.95));
  const cutChars = input.piped.length - kept.length;
  stderr.write(
    `jarvis: the piped text is about ${estimateTokens(input.piped)} tokens, more than fits model "${modelName}"'s ${window}-token window; ` +
      `sending only its last ${kept.length} characters (${cutChars} cut from the start).\n`,
  );
  const note = `[the first ${cutChars} characters of the piped text were cut to fit the model's window]\n`;
  return { ok: true, prompt: combinePrompt(input.question, note + kept), question: input.question, piped: kept };
}
