// The approval waiting for the user (docs/web.md "Approvals"), with the TUI's choices: approve once, approve for
// the session, or reject with feedback the model receives. Bash shows its command, Edit and Write their diff.
import { h } from '../dom';
import type { Approval } from '../state/types';
import { diffOfCall } from './diff';
import { parseArgs } from '../state/messages';

export interface ApprovalHandlers {
  approve(a: Approval, scope?: 'session'): void;
  reject(a: Approval, feedback: string): void;
}

export function approvalPanel(a: Approval, on: ApprovalHandlers): HTMLElement {
  const args = parseArgs(a.args);
  const diff = diffOfCall(a.tool, args);
  const feedback = h('textarea', {
    id: `fb-${a.approval_id}`,
    rows: 3,
    placeholder: 'What should the model do instead? (optional)',
  });
  const rejectForm = h(
    'form',
    {
      class: 'reject-form',
      hidden: true,
      onsubmit: (e: Event) => {
        e.preventDefault();
        on.reject(a, feedback.value);
      },
    },
    h('label', { for: `fb-${a.approval_id}` }, 'Feedback for the model'),
    feedback,
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', class: 'danger' }, 'Reject'),
      h('button', { type: 'button', onclick: () => ((rejectForm.hidden = true), first.focus()) }, 'Cancel'),
    ),
  );
  const first = h('button', { type: 'button', class: 'primary', onclick: () => on.approve(a) }, 'Approve once');
  return h(
    'section',
    { class: 'panel approval', role: 'region', 'aria-label': `Approval: ${a.tool}`, 'data-approval': a.approval_id },
    h('h2', null, `Allow ${a.tool}?`, a.agent_id !== 'main' ? h('span', { class: 'agent' }, ` (${a.agent_id})`) : null),
    h('p', { class: 'subject' }, h('code', null, a.subject)),
    a.reason ? h('p', { class: 'reason' }, a.reason) : null,
    a.tool === 'Bash' && typeof args.command === 'string'
      ? h('pre', { class: 'command', tabindex: 0, 'aria-label': 'command' }, args.command)
      : null,
    a.commands?.length
      ? h(
          'ul',
          { class: 'commands', 'aria-label': 'commands' },
          a.commands.map((c) => h('li', null, h('code', null, c))),
        )
      : null,
    diff,
    h(
      'div',
      { class: 'buttons' },
      first,
      h('button', { type: 'button', onclick: () => on.approve(a, 'session') }, 'Approve for this session'),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'aria-expanded': 'false',
          onclick: (e: Event) => {
            rejectForm.hidden = false;
            (e.currentTarget as HTMLElement).setAttribute('aria-expanded', 'true');
            feedback.focus();
          },
        },
        'Reject…',
      ),
    ),
    rejectForm,
  );
}
