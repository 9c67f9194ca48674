// The model's questions (AskUserQuestion) and plan reviews (ExitPlanMode) waiting for the user (docs/web.md), with
// the choices the TUI offers: the options (one or several), "Other" with the user's own words, or dismiss; for a
// plan: approve (or one of its alternatives), reject, reject and leave plan mode, or revise with feedback.
import { h } from '../dom';
import type { Interaction } from '../state/types';
import { markdown } from './markdown';

export interface QuestionHandlers {
  answer(q: Interaction, body: Record<string, unknown>): void;
  dismiss(q: Interaction): void;
}

const OTHER = 'Other';

function questionsForm(q: Interaction, on: QuestionHandlers): HTMLElement {
  const groups = (q.questions ?? []).map((question, n) => {
    const name = `${q.question_id}-${n}`;
    const type = question.multiSelect ? 'checkbox' : 'radio';
    const options = question.options.filter((o) => o.label !== OTHER);
    const otherText = h('input', {
      type: 'text',
      id: `${name}-other-text`,
      'aria-label': `Your own answer to: ${question.question}`,
      placeholder: 'Your own answer',
    });
    const otherBox = h('input', { type, name, value: OTHER, id: `${name}-other` });
    otherText.addEventListener('input', () => (otherBox.checked = otherText.value !== '' || otherBox.checked));
    return {
      question,
      name,
      otherText,
      el: h(
        'fieldset',
        null,
        h(
          'legend',
          null,
          question.header ? h('span', { class: 'chip' }, question.header) : null,
          ' ',
          question.question,
        ),
        options.map((o, i) =>
          h(
            'div',
            { class: 'option' },
            h('input', { type, name, value: o.label, id: `${name}-${i}` }),
            h(
              'label',
              { for: `${name}-${i}` },
              h('strong', null, o.label),
              o.description ? h('span', { class: 'desc' }, ` ${o.description}`) : null,
            ),
          ),
        ),
        h('div', { class: 'option' }, otherBox, h('label', { for: `${name}-other` }, OTHER), otherText),
      ),
    };
  });
  const form = h(
    'form',
    {
      onsubmit: (e: Event) => {
        e.preventDefault();
        const answers = groups.map((g) => {
          const picked = [
            ...form.querySelectorAll<HTMLInputElement>(`input[name="${CSS.escape(g.name)}"]:checked`),
          ].map((i) => i.value);
          const selected = picked.filter((v) => v !== OTHER);
          const other = picked.includes(OTHER) ? g.otherText.value.trim() : '';
          const kind =
            !selected.length && !other
              ? 'skipped'
              : other
                ? selected.length
                  ? 'multi_with_other'
                  : 'other'
                : g.question.multiSelect
                  ? 'multi'
                  : 'single';
          return { question: g.question.question, kind, selected, ...(other ? { other } : {}) };
        });
        on.answer(q, { answers });
      },
    },
    groups.map((g) => g.el),
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', class: 'primary' }, 'Answer'),
      h('button', { type: 'button', onclick: () => on.dismiss(q) }, 'Dismiss'),
    ),
  );
  return form;
}

function planForm(q: Interaction, on: QuestionHandlers): HTMLElement {
  const plan = q.plan!;
  const feedback = h('textarea', {
    id: `plan-fb-${q.question_id}`,
    rows: 3,
    placeholder: 'What should change in the plan?',
  });
  const revise = h(
    'form',
    {
      hidden: true,
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (feedback.value.trim()) on.answer(q, { plan_decision: 'revise', feedback: feedback.value.trim() });
        else feedback.focus();
      },
    },
    h('label', { for: `plan-fb-${q.question_id}` }, 'Feedback for the plan'),
    feedback,
    h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, 'Send feedback')),
  );
  return h(
    'div',
    null,
    h('p', { class: 'subject' }, h('code', null, plan.path)),
    h('div', { class: 'plan', tabindex: 0, 'aria-label': 'the plan' }, markdown(plan.text)),
    h(
      'div',
      { class: 'buttons' },
      plan.options.length
        ? plan.options.map((o) =>
            h(
              'button',
              {
                type: 'button',
                class: 'primary',
                onclick: () => on.answer(q, { plan_decision: 'approve', option: o.label }),
              },
              `Approve: ${o.label}`,
            ),
          )
        : h(
            'button',
            { type: 'button', class: 'primary', onclick: () => on.answer(q, { plan_decision: 'approve' }) },
            'Approve',
          ),
      h('button', { type: 'button', onclick: () => ((revise.hidden = false), feedback.focus()) }, 'Revise…'),
      h(
        'button',
        { type: 'button', onclick: () => on.answer(q, { plan_decision: 'reject' }) },
        'Reject (stay in plan mode)',
      ),
      h(
        'button',
        { type: 'button', class: 'danger', onclick: () => on.answer(q, { plan_decision: 'reject_and_exit' }) },
        'Reject and leave plan mode',
      ),
    ),
    revise,
  );
}

export function questionPanel(q: Interaction, on: QuestionHandlers): HTMLElement {
  const isPlan = q.kind === 'plan_review';
  return h(
    'section',
    {
      class: 'panel question',
      role: 'region',
      'aria-label': isPlan ? 'Plan review' : 'Question',
      'data-question': q.question_id,
    },
    h('h2', null, isPlan ? 'Review the plan' : 'The model asks'),
    isPlan ? planForm(q, on) : questionsForm(q, on),
  );
}
