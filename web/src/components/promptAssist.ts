// What helps write a prompt (docs/web.md "Prompt input"): `@` completes the session folder's files and `/` at the
// start completes its commands and skills (a listbox under the input: arrows move, Enter or Tab takes, Escape
// closes), and images pasted into the input or picked with "Attach image" go with the prompt (shown as chips
// that can be removed). The server checks each image again (docs/server.md "Prompts with images and files").
import { h, replaceChildren } from '../dom';
import type { CommandItem } from '../state/controlActions';

export interface AssistSource {
  files(query: string): Promise<string[]>;
  commands(): Promise<CommandItem[]>;
  error(message: string): void;
}

export interface PastedImage {
  media_type: string;
  data: string;
  label: string;
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
const MAX_IMAGES = 4;

interface Suggestion {
  insert: string;
  label: string;
  detail: string;
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the image could not be read'));
    reader.readAsDataURL(file);
  });
}

export class PromptAssist {
  readonly list = h('ul', {
    id: 'prompt-suggestions',
    role: 'listbox',
    class: 'suggestions',
    hidden: true,
    'aria-label': 'Suggestions',
  });
  readonly chips = h('div', { class: 'image-chips', 'aria-label': 'Images to send', hidden: true });
  readonly picker: HTMLElement;
  private items: Suggestion[] = [];
  private active = 0;
  private asked = 0;
  private pending: PastedImage[] = [];

  constructor(
    private readonly input: HTMLTextAreaElement,
    form: HTMLElement,
    private readonly source: AssistSource,
  ) {
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', this.list.id);
    input.setAttribute('aria-expanded', 'false');
    input.addEventListener('input', () => void this.suggest());
    input.addEventListener('blur', () => this.close());
    // Capture on the form: the keys are taken before the prompt's own Enter-sends handler sees them.
    form.addEventListener('keydown', (e) => this.onKey(e), { capture: true });
    input.addEventListener('paste', (e) => {
      const files = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
      if (!files.length) return;
      e.preventDefault();
      void this.addImages(files);
    });
    const file = h('input', {
      type: 'file',
      id: 'attach-image',
      class: 'visually-hidden',
      accept: IMAGE_TYPES.join(','),
      multiple: true,
      onchange: (e: Event) => {
        const el = e.target as HTMLInputElement;
        void this.addImages([...(el.files ?? [])]).then(() => (el.value = ''));
      },
    });
    this.picker = h(
      'span',
      { class: 'attach' },
      file,
      h('label', { for: 'attach-image', class: 'button' }, 'Attach image'),
    );
  }

  /** The images waiting to go with the next prompt. */
  images(): PastedImage[] {
    return this.pending;
  }

  /** The images to send with the prompt, taken once (the chips go). */
  takeImages(): PastedImage[] {
    const taken = this.pending;
    this.pending = [];
    this.renderChips();
    return taken;
  }

  private async addImages(files: File[]): Promise<void> {
    for (const f of files) {
      if (this.pending.length >= MAX_IMAGES)
        return this.source.error(`At most ${MAX_IMAGES} images go with one prompt.`);
      if (!IMAGE_TYPES.includes(f.type))
        return this.source.error(
          `${f.name || 'The image'} is ${f.type || 'not an image'}; PNG, JPEG, GIF and WebP are taken.`,
        );
      if (f.size > MAX_IMAGE_BYTES)
        return this.source.error(`${f.name || 'The image'} is over 8 MiB; make it smaller first.`);
      const data = await readBase64(f);
      const kb = Math.max(1, Math.round(f.size / 1024));
      this.pending.push({
        media_type: f.type,
        data,
        label: `image ${this.pending.length + 1} (${f.type.slice(6)}, ${kb} KB)`,
      });
    }
    this.renderChips();
  }

  private renderChips(): void {
    this.chips.hidden = this.pending.length === 0;
    replaceChildren(
      this.chips,
      this.pending.map((img, i) =>
        h(
          'span',
          { class: 'chip' },
          img.label,
          h(
            'button',
            {
              type: 'button',
              'aria-label': `Remove ${img.label}`,
              onclick: () => {
                this.pending.splice(i, 1);
                this.pending = this.pending.map((m, n) => ({
                  ...m,
                  label: m.label.replace(/^image \d+/, `image ${n + 1}`),
                }));
                this.renderChips();
                this.input.focus();
              },
            },
            '×',
          ),
        ),
      ),
    );
  }

  /** What is being completed at the caret now: `/name` at the start, or `@path` after a space. */
  private tokenAtCaret(): { kind: '/' | '@'; query: string; start: number; end: number } | undefined {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const before = this.input.value.slice(0, caret);
    const slash = /^\/(\S*)$/.exec(before);
    if (slash) return { kind: '/', query: slash[1], start: 0, end: caret };
    const at = /(?:^|\s)@(\S*)$/.exec(before);
    if (at) return { kind: '@', query: at[1], start: caret - at[1].length - 1, end: caret };
    return undefined;
  }

  private async suggest(): Promise<void> {
    const ask = ++this.asked;
    const token = this.tokenAtCaret();
    let items: Suggestion[] = [];
    if (token?.kind === '/') {
      const q = token.query.toLowerCase();
      const all = await this.source.commands();
      items = all
        .filter((c) => c.name.toLowerCase().includes(q))
        .sort((a, b) => Number(!a.name.toLowerCase().startsWith(q)) - Number(!b.name.toLowerCase().startsWith(q)))
        .slice(0, 12)
        .map((c) => ({
          insert: `/${c.name} `,
          label: `/${c.name}${c.argument_hint ? ` ${c.argument_hint}` : ''}`,
          detail: `${c.description} (${c.source})`,
        }));
    } else if (token?.kind === '@') {
      const paths = await this.source.files(token.query);
      items = paths.map((p) => ({
        insert: `@${/\s/.test(p) ? `"${p}"` : p}${p.endsWith('/') ? '' : ' '}`,
        label: p,
        detail: '',
      }));
    }
    if (ask !== this.asked) return;
    this.items = items;
    this.active = 0;
    this.renderList();
  }

  private renderList(): void {
    const open = this.items.length > 0;
    this.list.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    if (!open) this.input.removeAttribute('aria-activedescendant');
    else this.input.setAttribute('aria-activedescendant', `suggestion-${this.active}`);
    replaceChildren(
      this.list,
      this.items.map((s, i) =>
        h(
          'li',
          {
            id: `suggestion-${i}`,
            role: 'option',
            'aria-selected': String(i === this.active),
            class: 'suggestion',
            // The input keeps the focus: pressing the mouse on an option would otherwise blur it and close the list.
            onmousedown: (e: Event) => e.preventDefault(),
            onclick: () => this.take(i),
          },
          h('span', { class: 'suggestion-label' }, s.label),
          s.detail ? h('span', { class: 'muted' }, ` ${s.detail}`) : null,
        ),
      ),
    );
  }

  private close(): void {
    this.asked++;
    this.items = [];
    this.renderList();
  }

  private take(i: number): void {
    const s = this.items[i];
    // The token as it is now: the user may have typed on since the list was drawn.
    const token = this.tokenAtCaret();
    if (!s || !token) return;
    const v = this.input.value;
    this.input.value = v.slice(0, token.start) + s.insert + v.slice(token.end);
    const caret = token.start + s.insert.length;
    this.input.setSelectionRange(caret, caret);
    this.close();
    this.input.focus();
    // A folder (`@src/`) goes on completing inside it.
    if (s.insert.endsWith('/')) void this.suggest();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target !== this.input || this.list.hidden || e.isComposing) return;
    const n = this.items.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.renderList();
    } else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') this.take(this.active);
    else if (e.key === 'Escape') this.close();
    else return;
    e.preventDefault();
    e.stopPropagation();
  }
}
