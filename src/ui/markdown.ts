// Markdown for the transcript: pi-tui's Markdown renderer styled with the theme, code blocks
// highlighted by cli-highlight (imported lazily, off the start path), and the split of a streaming
// answer into finished blocks (which go to the scrollback) and the still-growing tail.
import { Markdown, type MarkdownTheme } from '@mariozechner/pi-tui';
import { commonJsExports } from '../platform/commonJsModule';
import { noteSurvivedFailure } from '../store/crashLog';
import type { Theme } from './theme';

export type Highlighter = (code: string, options: { language?: string; ignoreIllegals?: boolean }) => string;
let highlighter: Highlighter | undefined;
let highlighterLoading: Promise<void> | undefined;

/** cli-highlight's `highlight`; rejects naming the library when it does not load or lacks it. */
export async function loadHighlighter(): Promise<Highlighter> {
  const mod = commonJsExports((await import('cli-highlight')) as { highlight?: Highlighter });
  if (typeof mod.highlight !== 'function') throw new Error('cli-highlight has no export "highlight"');
  return mod.highlight;
}

/** Starts loading cli-highlight in the background; code renders plain until it is there. */
export function preloadHighlighter(): Promise<void> {
  highlighterLoading ??= loadHighlighter()
    .then((loaded) => {
      highlighter = loaded;
    })
    .catch((e: unknown) => {
      // Highlighting is cosmetic: without it code blocks render plain, and the log says why.
      noteSurvivedFailure('cli-highlight did not load (code blocks render without colours)', e);
    });
  return highlighterLoading;
}

function highlightCode(theme: Theme): (code: string, lang?: string) => string[] {
  return (code, lang) => {
    if (highlighter && lang) {
      try {
        return highlighter(code, { language: lang, ignoreIllegals: true }).split('\n');
      } catch {
        // an unknown language: fall through to plain
      }
    }
    return code.split('\n').map((l) => theme.fg.accent(l));
  };
}

/** One MarkdownTheme per theme: every block of a long transcript shares it instead of holding its own closures. */
const markdownThemes = new WeakMap<Theme, MarkdownTheme>();

export function markdownTheme(theme: Theme): MarkdownTheme {
  let cached = markdownThemes.get(theme);
  if (!cached) {
    cached = buildMarkdownTheme(theme);
    markdownThemes.set(theme, cached);
  }
  return cached;
}

function buildMarkdownTheme(theme: Theme): MarkdownTheme {
  const { fg } = theme;
  return {
    heading: (t) => theme.bold(fg.primary(t)),
    link: (t) => theme.underline(fg.primary(t)),
    linkUrl: (t) => fg.textDim(t),
    code: (t) => fg.accent(t),
    codeBlock: (t) => fg.accent(t),
    codeBlockBorder: (t) => fg.textMuted(t),
    quote: (t) => theme.italic(fg.textDim(t)),
    quoteBorder: (t) => fg.border(t),
    hr: (t) => fg.border(t),
    listBullet: (t) => fg.accent(t),
    bold: (t) => theme.bold(t),
    italic: (t) => theme.italic(t),
    strikethrough: (t) => theme.strike(t),
    underline: (t) => theme.underline(t),
    highlightCode: highlightCode(theme),
  };
}

export function markdownView(text: string, theme: Theme, opts: { dim?: boolean } = {}): Markdown {
  return new Markdown(
    text,
    1,
    0,
    markdownTheme(theme),
    opts.dim ? { color: theme.fg.textDim, italic: true } : undefined,
  );
}

/**
 * Splits streaming Markdown at the last block boundary that can no longer change: a blank line
 * outside a code fence. Everything before it renders the same whatever arrives next.
 */
export function splitStableMarkdown(text: string): { stable: string; tail: string } {
  let inFence: string | undefined;
  let boundary = -1;
  let offset = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i];
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (!inFence) inFence = fence[1];
      else if (line.trim().startsWith(inFence)) inFence = undefined;
    }
    offset += line.length + 1;
    // A blank line outside fences ends a block; a following indented or list line may still continue
    // a list, so only cut before a line (possibly still partial) that starts at column 0 with text.
    if (!inFence && line.trim() === '' && i + 1 < lines.length) {
      const next = lines[i + 1];
      if (next.trim() !== '' && !/^\s/.test(next) && !/^([-*+]|\d+[.)])\s/.test(next)) boundary = offset;
    }
  }
  if (boundary <= 0) return { stable: '', tail: text };
  return { stable: text.slice(0, boundary).replace(/\n+$/, ''), tail: text.slice(boundary) };
}
