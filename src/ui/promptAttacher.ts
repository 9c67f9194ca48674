// What goes with a prompt besides its text (docs/ui.md "Attaching files"): the files, images and
// folders it mentions with `@path` (promptAttachments.ts), and images pasted into the input box —
// with Ctrl-V from the clipboard, or as a pasted path of an image file (a file dragged onto the
// terminal). A pasted image shows as an editable placeholder (`[Image #1]`); it goes with the prompt
// when the placeholder is still in the text at Enter. Sends keep their order even when one of them
// waits for its files to be read.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { PermissionRule } from '../engine/policy/approvals';
import { attachMediaFile, attachMentions, runtimeAttachmentEnv } from '../engine/runtime/promptAttachments';
import type { Runtime } from '../engine/runtime/runtime';
import { resolvePath } from '../engine/loop/toolRunner';
import type { ContentPart } from '../llm/types';
import { readClipboard, type ClipboardContent } from '../platform/clipboard';
import { detectMedia, MEDIA_SNIFF_BYTES } from '../tools/file/mediaTypes';

export interface AttacherHost {
  readonly cwd: string;
  readonly rules: readonly PermissionRule[];
  /** Whether the current model takes images (`image_in`). */
  imageInput(): boolean;
  readonly modelLabel: string;
  notice(level: 'info' | 'warning' | 'error', text: string, hint?: string): void;
  requestRender(): void;
}

interface PastedImage {
  path: string;
  /** A clipboard image written to a temporary folder, removed once sent or dropped. */
  temporary: boolean;
}

/** A pasted path as terminals send a dropped file: quoted, `file://`, or with `\ `-escaped spaces. */
export function pastedPath(text: string): string | undefined {
  let p = text.trim();
  if (!p || p.includes('\n')) return undefined;
  if ((p.startsWith("'") && p.endsWith("'")) || (p.startsWith('"') && p.endsWith('"'))) p = p.slice(1, -1);
  else p = p.replace(/\\(.)/g, '$1');
  if (p.startsWith('file://')) {
    try {
      p = decodeURIComponent(new URL(p).pathname);
    } catch {
      return undefined;
    }
  }
  return p || undefined;
}

function headOf(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(MEDIA_SNIFF_BYTES);
    return head.subarray(0, readSync(fd, head, 0, MEDIA_SNIFF_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

function removeTemporary(images: ReadonlyArray<[string, PastedImage]>): void {
  for (const [, image] of images) if (image.temporary) rmSync(dirname(image.path), { recursive: true, force: true });
}

export class PromptAttacher {
  private chain: Promise<void> = Promise.resolve();
  private waiting = 0;
  /** Chips of sent prompts, by prompt text, until their turn shows them. */
  private readonly chips = new Map<string, string[][]>();
  private readonly pasted = new Map<string, PastedImage>();
  private pasteCount = 0;

  constructor(
    private readonly host: AttacherHost,
    private readonly clipboard: () => Promise<ClipboardContent> = () => readClipboard(),
  ) {}

  /** Calls `submit` with `content` plus the prompt's attachments, after any earlier send. */
  send(rt: Runtime, text: string, content: ContentPart[], submit: (content: ContentPart[]) => void): void {
    // Every pasted image is used by this prompt or gone from the text: the next prompt starts afresh.
    const images = [...this.pasted].filter(([placeholder]) => text.includes(placeholder));
    removeTemporary([...this.pasted].filter(([placeholder]) => !text.includes(placeholder)));
    this.pasted.clear();
    if (!text.includes('@') && !images.length && this.waiting === 0) return submit(content);
    this.waiting++;
    this.chain = this.chain.then(async () => {
      const parts: ContentPart[] = [];
      const chips: string[] = [];
      try {
        const env = runtimeAttachmentEnv(rt, this.host.rules, this.host.cwd);
        for (const [placeholder, image] of images) {
          const attached = await attachMediaFile(image.path, placeholder, 'image', env, new AbortController().signal);
          if ('problem' in attached)
            this.host.notice('warning', `${placeholder} was not attached: ${attached.problem}`);
          else {
            parts.push(...attached.parts);
            chips.push(`[${placeholder.slice(1, -1)} ${attached.label}]`);
          }
        }
        const mentioned = text.includes('@') ? await attachMentions(text, env) : { parts: [], chips: [], notices: [] };
        for (const n of mentioned.notices) this.host.notice('warning', n);
        parts.push(...mentioned.parts);
        chips.push(...mentioned.chips);
      } catch (e) {
        this.host.notice(
          'error',
          `Attaching files failed: ${(e as Error).message}`,
          'The prompt was sent without them.',
        );
      } finally {
        removeTemporary(images);
        this.waiting--;
      }
      if (chips.length) this.chips.set(text, [...(this.chips.get(text) ?? []), chips]);
      submit([...content, ...parts]);
      this.host.requestRender();
    });
  }

  /** The chips of the prompt whose turn starts now. */
  takeChips(prompt: string): string[] {
    const queue = this.chips.get(prompt);
    const first = queue?.shift() ?? [];
    if (queue && !queue.length) this.chips.delete(prompt);
    return first;
  }

  /** Ctrl-V: the clipboard's image as a placeholder to insert, or its text to paste as usual; undefined (with a notice) when neither. */
  async pasteFromClipboard(): Promise<{ kind: 'image' | 'text'; insert: string } | undefined> {
    const content = await this.clipboard();
    switch (content.kind) {
      case 'unavailable':
        this.host.notice(
          'warning',
          content.message,
          'You can also mention an image file with @path, or paste its path.',
        );
        return undefined;
      case 'empty':
        this.host.notice('info', 'The clipboard is empty.');
        return undefined;
      case 'text':
        return { kind: 'text', insert: content.text };
      case 'image': {
        if (!this.imageAllowed()) return undefined;
        const dir = mkdtempSync(join(tmpdir(), 'jarvis-paste-'));
        const file = join(dir, `clipboard.${content.mediaType.split('/')[1] ?? 'png'}`);
        writeFileSync(file, content.data);
        return { kind: 'image', insert: this.addImage(file, true) };
      }
    }
  }

  /** A bracketed paste that is just the path of an image file attaches the image; undefined for any other paste. */
  pasteText(text: string): string | undefined {
    const candidate = pastedPath(text);
    if (!candidate) return undefined;
    const path = resolvePath(this.host.cwd, candidate);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
    // Synchronous, so keys typed right after the paste land after it.
    const media = detectMedia(headOf(path), path);
    if (media?.kind !== 'image' || media.format === 'svg') return undefined;
    if (!this.imageAllowed()) return undefined;
    return this.addImage(path, false);
  }

  private imageAllowed(): boolean {
    if (this.host.imageInput()) return true;
    this.host.notice(
      'warning',
      `The model ${this.host.modelLabel} does not take images (it lacks the image_in capability), so the image was not attached.`,
      '/model switches to a model that does.',
    );
    return false;
  }

  private addImage(path: string, temporary: boolean): string {
    const placeholder = `[Image #${++this.pasteCount}${temporary ? '' : `: ${basename(path)}`}]`;
    this.pasted.set(placeholder, { path, temporary });
    return placeholder;
  }

  /** The UI closes: pasted images never sent are removed. */
  dispose(): void {
    removeTemporary([...this.pasted]);
    this.pasted.clear();
  }
}
