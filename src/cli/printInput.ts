// Where print mode's prompt comes from (docs/print-mode.md "Input"): `-p "<question>"` with text piped
// on stdin sends both — the piped text as context, the argument as the question; `-p -`, a bare `-p`
// or no `-p` with a pipe read the whole prompt from stdin. A terminal on stdin is never read.
import { fstatSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** After this long with standard input still open, say that we are waiting for it. */
const STDIN_NOTICE_MS = 3_000;

export interface PrintInput {
  /** The `-p` value: text, `true` for a bare `-p`, `'-'` for stdin; undefined without `-p`. */
  prompt: string | true | undefined;
  stdin: Readable & { isTTY?: boolean; fd?: number };
  stderr: { write(s: string): void };
}

export type PromptResult = { ok: true; prompt: string } | { ok: false; message: string };

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
    stderr.write(`jarvis: waiting for standard input to end (${why}); end it with Ctrl-D, or run with </dev/null to send nothing.\n`);
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
      return { ok: false, message: 'jarvis: -p without a prompt reads it from standard input, but standard input is a terminal. Pass it with -p "<task>" or pipe it in.' };
    }
    const text = stdinIsPiped(stdin) ? await readAll(stdin, stderr, 'it is the prompt') : '';
    if (!text.trim()) return { ok: false, message: 'jarvis: the prompt is empty. Pass it with -p "<task>" or on standard input.' };
    return { ok: true, prompt: text };
  }
  if (!prompt.trim()) return { ok: false, message: 'jarvis: the prompt is empty. Pass it with -p "<task>" or on standard input.' };
  if (!stdinIsPiped(stdin)) return { ok: true, prompt };
  const piped = await readAll(stdin, stderr, 'piped text is sent with the prompt');
  return { ok: true, prompt: piped.trim() ? combinePrompt(prompt, piped) : prompt };
}
