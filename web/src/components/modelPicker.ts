// The session's model switch (docs/web.md "Controls"): a labelled select filled from the models the session offers
// (GET …/models, the config's aliases as the terminal's /model lists them), the current one selected and described
// beside it. Picking one switches with POST …/profile; a refusal (a turn runs, the alias does not resolve) shows the
// server's reason as every control's does, and the select goes back to the model in use.
import { h } from '../dom';
import type { ControlActions } from '../state/controlActions';
import type { ModelChoice, Status } from '../state/types';

/** The alias the JARVIS_MODEL_* variables' model carries (src/types/models.ts ENV_MODEL_ALIAS). */
const ENV_ALIAS = 'JARVIS_MODEL';

function optionLabel(m: ModelChoice): string {
  if (m.alias === ENV_ALIAS) return `${m.display_name} (from JARVIS_MODEL_*)`;
  const name = m.display_name === m.alias ? m.alias : `${m.alias} — ${m.display_name}`;
  return m.problem ? `${name} (not set up)` : name;
}

function detail(m: ModelChoice | undefined): string {
  if (!m) return '';
  if (m.problem) return m.problem;
  const parts = [`${m.provider} · ${m.model}`];
  if (m.context_window) parts.push(`${Math.round(m.context_window / 1000)}k context`);
  parts.push(m.thinking === 'none' ? 'no thinking' : m.thinking === 'always' ? 'always thinks' : 'thinking');
  return parts.join(' · ');
}

export class ModelPicker {
  readonly select: HTMLSelectElement;
  readonly detail = h('span', { id: 'model-detail', class: 'muted' });
  readonly label = h('label', { for: 'model' }, 'Model');
  private choices: ModelChoice[] = [];
  /** The session and model the list was read for: another session or a switch reads it again. */
  private loadedFor = '';
  private loads = 0;

  constructor(private readonly controls: ControlActions) {
    this.select = h('select', { id: 'model', 'aria-describedby': 'model-detail', onchange: () => void this.pick() });
  }

  render(status: Status): void {
    const key = `${status.session_id}\n${status.model ?? ''}\n${status.model_id ?? ''}`;
    if (key !== this.loadedFor) {
      this.loadedFor = key;
      void this.load();
    }
  }

  private async load(): Promise<void> {
    const n = ++this.loads;
    const items = await this.controls.models();
    if (n !== this.loads || !items) return;
    this.choices = items;
    // Refilling resets the selection: the model in use is shown again, unless the user is on another option now.
    const focused = document.activeElement === this.select;
    const kept = this.select.value;
    this.select.replaceChildren(...items.map((m) => h('option', { value: m.alias }, optionLabel(m))));
    const current = items.find((m) => m.current);
    if (focused && items.some((m) => m.alias === kept)) this.select.value = kept;
    else if (current) this.select.value = current.alias;
    this.detail.textContent = detail(current);
  }

  private async pick(): Promise<void> {
    const alias = this.select.value;
    if (this.choices.find((m) => m.current)?.alias === alias) return;
    await this.controls.profile({ model: alias });
    // Switched: the new status reads the list again (render). Refused: the select shows the model in use again.
    const current = this.choices.find((m) => m.current);
    if (current) this.select.value = current.alias;
  }
}
