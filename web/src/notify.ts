// Browser notifications (docs/web.md "Notifications"): when a turn ends or an approval or question waits while
// this tab is not being looked at. Only after the user turned them on (the browser asks for permission then).
import type { State } from './state/types';

const KEY = 'jarvis-web-notify';

export class Notifier {
  enabled(): boolean {
    return (
      typeof Notification !== 'undefined' && Notification.permission === 'granted' && localStorage.getItem(KEY) === 'on'
    );
  }

  async enable(): Promise<string> {
    if (typeof Notification === 'undefined') return 'This browser has no notifications.';
    const answer = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    if (answer !== 'granted') return 'Notifications were not allowed; the browser settings can allow them.';
    localStorage.setItem(KEY, 'on');
    return 'Notifications are on.';
  }

  /** Compares two states of the store and tells what the user would want to hear about. */
  observe(s: State, prev: State): void {
    const cur = s.current;
    const was = prev.current;
    if (!cur || !was || cur.id !== was.id || !this.enabled()) return;
    if (document.visibilityState === 'visible' && document.hasFocus()) return;
    const waiting = cur.approvals.length + cur.questions.length;
    if (waiting > was.approvals.length + was.questions.length) {
      const a = cur.approvals.at(-1);
      this.show(
        a ? `Approval waiting: ${a.tool}` : 'A question is waiting',
        a?.subject ?? 'Jarvis asks you something.',
      );
    } else if (was.busy && !cur.busy) this.show('Turn finished', cur.status?.title ?? 'Jarvis is done.');
  }

  private show(title: string, body: string): void {
    // `tag`: one notification per kind, replaced rather than piled up.
    new Notification(title, { body: body.slice(0, 200), tag: `jarvis-${title.split(':')[0]}` });
  }
}
