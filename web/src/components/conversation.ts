// The conversation (docs/web.md): the user's prompts, the model's answers as Markdown, tool cards and notices.
// Items are drawn once and their nodes kept while the item object stays the same, so streaming text redraws only
// the message it belongs to, and the view follows the end unless the user scrolled up.
import { h } from '../dom';
import type { Item } from '../state/types';
import { markdown } from './markdown';
import { toolCard } from './toolCard';

function draw(item: Item): HTMLElement {
  switch (item.kind) {
    case 'user':
      return h(
        'article',
        { class: 'msg msg-user', 'aria-label': item.queued ? 'your prompt (queued)' : 'your prompt' },
        h('div', { class: 'who' }, item.queued ? 'You (queued)' : 'You'),
        h('p', { class: 'user-text' }, item.text),
      );
    case 'assistant':
      return h(
        'article',
        { class: `msg msg-assistant${item.streaming ? ' streaming' : ''}`, 'aria-label': 'answer' },
        markdown(item.text),
      );
    case 'thinking':
      return h('article', { class: 'msg msg-thinking', 'aria-label': 'thinking' }, h('p', null, item.text));
    case 'tool':
      return toolCard(item);
    case 'notice':
      return h(
        'p',
        { class: `notice notice-${item.level}`, role: item.level === 'error' ? 'alert' : undefined },
        item.text,
      );
  }
}

export class ConversationView {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private drawn = new Map<string, { item: Item; node: HTMLElement }>();

  constructor() {
    this.list = h('div', { class: 'items' });
    this.el = h(
      'section',
      { class: 'conversation', 'aria-label': 'Conversation', 'aria-live': 'polite', tabindex: -1 },
      this.list,
    );
  }

  render(items: Item[] | undefined, empty: string): void {
    const atEnd = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40;
    if (!items?.length) {
      this.drawn.clear();
      this.list.replaceChildren(h('p', { class: 'empty' }, empty));
      return;
    }
    const next = new Map<string, { item: Item; node: HTMLElement }>();
    const nodes = items.map((item) => {
      const old = this.drawn.get(item.id);
      const node = old && old.item === item ? old.node : draw(item);
      next.set(item.id, { item, node });
      return node;
    });
    this.drawn = next;
    // Only nodes out of place are moved, so focus inside a card survives a redraw.
    nodes.forEach((node, i) => {
      if (this.list.children[i] !== node) this.list.insertBefore(node, this.list.children[i] ?? null);
    });
    while (this.list.children.length > nodes.length) this.list.lastElementChild!.remove();
    if (atEnd) this.el.scrollTop = this.el.scrollHeight;
  }
}
