// The `/plugins` manager (docs/plugins.md "The /plugins manager"): one panel in the input box's place with
// four tabs — Installed, Official, Curated, Custom — switched with Tab / Shift-Tab. Installed: Space
// enables or disables, D removes (after a confirmation), M switches the plugin's MCP servers, R reads
// installed.json and the manifests again, Enter installs an available update or shows the details, I
// shows the details. Official / Curated: Enter installs or updates the marketplace entry. Custom: Enter
// installs from the typed folder, zip URL or GitHub URL. Anything but an official entry of the default
// marketplace asks first. Esc goes back, then closes. Every change is also said in the transcript, with
// the reminder that it applies after /reload or /new.
import { Input, matchesKey, type Component, type Focusable } from '@mariozechner/pi-tui';
import type { McpServerStatus } from '../../ext/mcp/mcpManager';
import type { Marketplace, MarketplaceEntry } from '../../ext/plugins/marketplace';
import type { PluginManager, PluginView } from '../../ext/plugins/manager';
import type { PluginTier } from '../../ext/plugins/installedStore';
import { installNotice } from '../../ext/plugins/officialNotices';
import { formatShellCommands } from '../../ext/plugins/pluginText';
import { boxWriter, type BoxWriter } from '../dialogs/box';
import type { Theme } from '../theme';
import { mcpServerStateLine } from './pluginMcpState';
import {
  APPLY_HINT,
  entryDetailLines,
  needsConfirmation,
  pluginDetailLines,
  pluginState,
  updateFor,
} from './pluginLines';

export const PLUGIN_TABS = ['installed', 'official', 'curated', 'custom'] as const;
export type PluginsTab = (typeof PLUGIN_TABS)[number];
const TAB_LABEL: Record<PluginsTab, string> = {
  installed: 'Installed',
  official: 'Official',
  curated: 'Curated',
  custom: 'Custom',
};

type Level = 'info' | 'warning' | 'error' | 'success';

export interface PluginsPanelDeps {
  theme(): Theme;
  /** Terminal height: long lists scroll inside the panel. */
  rows(): number;
  manager: PluginManager;
  /** The catalog of the Official and Curated tabs (the default one, or the one `/plugins marketplace` named). */
  loadCatalog(): Promise<Marketplace>;
  /** A line in the transcript (each change is reported there too). */
  notice(level: Level, text: string, hint?: string): void;
  requestRender(): void;
  close(): void;
  initialTab?: PluginsTab;
  /** The environment plugins see (an install's notice checks what the plugin needs in it); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The running session's MCP servers (the MCP sub-view shows each plugin server's state now). */
  mcpStatus?(): readonly McpServerStatus[];
}

type Overlay =
  | { kind: 'confirm'; title: string; body: string[]; yes: string; cursor: number; onYes(): void }
  | { kind: 'details'; title: string; lines: string[]; offset: number }
  /** `status`: what the last switch in this sub-view said; a new visit starts without one. */
  | { kind: 'mcp'; view: PluginView; cursor: number; status?: { level: Level; text: string } };

export class PluginsPanel implements Component, Focusable {
  focused = true;
  private tab: PluginsTab;
  private views: PluginView[] | undefined;
  private installedProblem: string | undefined;
  private catalog: Marketplace | undefined;
  private catalogError: string | undefined;
  private readonly cursor: Record<PluginsTab, number> = { installed: 0, official: 0, curated: 0, custom: 0 };
  private overlay: Overlay | undefined;
  private busy: { label: string; abort?: AbortController } | undefined;
  private status: { level: Level; text: string } | undefined;
  private readonly customInput = new Input();

  constructor(private readonly deps: PluginsPanelDeps) {
    this.tab = deps.initialTab ?? 'installed';
    this.customInput.focused = true;
    void this.refreshInstalled().catch((e: Error) =>
      this.update(() => ((this.views = []), (this.installedProblem = e.message))),
    );
    void deps.loadCatalog().then(
      (catalog) => this.update(() => (this.catalog = catalog)),
      (e: Error) => this.update(() => (this.catalogError = e.message)),
    );
  }

  private update(change: () => void): void {
    change();
    this.deps.requestRender();
  }

  private async refreshInstalled(): Promise<void> {
    const views = await this.deps.manager.list();
    this.update(() => {
      this.views = views;
      this.installedProblem = this.deps.manager.problem();
      this.cursor.installed = Math.min(this.cursor.installed, Math.max(0, views.length - 1));
    });
  }

  /** The marketplace entries a tab lists: Official the official tier, Curated everything else. */
  private entries(tab: PluginsTab): MarketplaceEntry[] {
    const all = this.catalog?.entries ?? [];
    return tab === 'official'
      ? all.filter((e) => e.tier === 'official')
      : tab === 'curated'
        ? all.filter((e) => e.tier !== 'official')
        : [];
  }

  private rowCount(): number {
    return this.tab === 'installed' ? (this.views?.length ?? 0) : this.entries(this.tab).length;
  }

  private installedView(id: string): PluginView | undefined {
    return this.views?.find((v) => v.id === id);
  }

  // ---- keys ----------------------------------------------------------------------------------

  handleInput(data: string): void {
    if (this.busy) {
      if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c')) this.busy.abort?.abort();
      return;
    }
    if (this.overlay) return this.overlayKey(this.overlay, data);
    if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c')) return this.deps.close();
    const step = matchesKey(data, 'tab') ? 1 : matchesKey(data, 'shift+tab') ? -1 : 0;
    if (step) {
      const i = PLUGIN_TABS.indexOf(this.tab);
      this.tab = PLUGIN_TABS[(i + step + PLUGIN_TABS.length) % PLUGIN_TABS.length];
      this.status = undefined;
      return;
    }
    if (this.tab === 'custom') {
      if (matchesKey(data, 'enter')) this.installCustom();
      else this.customInput.handleInput(data);
      return;
    }
    const n = this.rowCount();
    if (matchesKey(data, 'up') && n) this.cursor[this.tab] = (this.cursor[this.tab] + n - 1) % n;
    else if (matchesKey(data, 'down') && n) this.cursor[this.tab] = (this.cursor[this.tab] + 1) % n;
    else if (this.tab === 'installed') this.installedKey(data);
    else this.marketplaceKey(data);
  }

  private installedKey(data: string): void {
    if (matchesKey(data, 'r') || data === 'R') return void this.reload();
    const view = this.views?.[this.cursor.installed];
    if (!view) return;
    const update = updateFor(view, this.catalog);
    if (matchesKey(data, 'space'))
      void this.run(view.enabled ? `Disabling ${view.id}…` : `Enabling ${view.id}…`, async () => {
        const changed = view.enabled
          ? await this.deps.manager.disable(view.id)
          : await this.deps.manager.enable(view.id);
        return `${changed.enabled ? 'Enabled' : 'Disabled'} the plugin ${view.id}.`;
      });
    else if (matchesKey(data, 'd') || data === 'D') this.confirmRemove(view);
    else if (matchesKey(data, 'm') || data === 'M') this.overlay = { kind: 'mcp', view, cursor: 0 };
    else if (matchesKey(data, 'i') || data === 'I') this.showDetails(view.displayName, pluginDetailLines(view, update));
    else if (matchesKey(data, 'enter')) {
      if (update) this.installEntry(update);
      else this.showDetails(view.displayName, pluginDetailLines(view, update));
    }
  }

  private marketplaceKey(data: string): void {
    const entry = this.entries(this.tab)[this.cursor[this.tab]];
    if (!entry || !this.catalog) return;
    if (matchesKey(data, 'enter')) this.installEntry(entry);
    else if (matchesKey(data, 'i') || data === 'I')
      this.showDetails(entry.displayName, entryDetailLines(entry, this.installedView(entry.id), this.catalog));
  }

  private overlayKey(o: Overlay, data: string): void {
    const back = matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c');
    if (o.kind === 'details') {
      if (back || matchesKey(data, 'enter') || data === 'q') this.overlay = undefined;
      else if (matchesKey(data, 'up')) o.offset = Math.max(0, o.offset - 1);
      else if (matchesKey(data, 'down'))
        o.offset = Math.min(Math.max(0, o.lines.length - this.visibleRows()), o.offset + 1);
      return;
    }
    if (o.kind === 'confirm') {
      const yes = data === 'y' || data === 'Y' || (matchesKey(data, 'enter') && o.cursor === 0);
      if (yes) {
        this.overlay = undefined;
        o.onYes();
      } else if (back || data === 'n' || data === 'N' || matchesKey(data, 'enter')) {
        this.overlay = undefined;
        this.status = { level: 'info', text: 'Cancelled.' };
      } else if (matchesKey(data, 'up') || matchesKey(data, 'down')) o.cursor = 1 - o.cursor;
      return;
    }
    const servers = o.view.mcpServers;
    if (back) this.overlay = undefined;
    else if (matchesKey(data, 'up') && servers.length) o.cursor = (o.cursor + servers.length - 1) % servers.length;
    else if (matchesKey(data, 'down') && servers.length) o.cursor = (o.cursor + 1) % servers.length;
    else if ((matchesKey(data, 'space') || matchesKey(data, 'enter')) && servers[o.cursor]) {
      const server = servers[o.cursor];
      o.status = undefined;
      void this.run(`Switching ${server.name}…`, async () => {
        o.view = await this.deps.manager.setMcpServerEnabled(o.view.id, server.name, !server.enabled);
        return `${server.enabled ? 'Disabled' : 'Enabled'} the MCP server ${server.name} of ${o.view.id}.`;
      }).then(() => {
        o.status = this.status;
        this.deps.requestRender();
      });
    }
  }

  // ---- actions -------------------------------------------------------------------------------

  /** Runs a change with a busy line; its message goes to the panel and the transcript, with the apply hint. */
  private async run(
    label: string,
    action: (signal: AbortSignal) => Promise<string>,
    after?: () => void,
  ): Promise<void> {
    const abort = new AbortController();
    this.update(() => (this.busy = { label, abort }));
    try {
      const text = await action(abort.signal);
      this.status = { level: 'success', text: `${text} ${APPLY_HINT}` };
      this.deps.notice('success', text, APPLY_HINT);
      after?.();
    } catch (e) {
      const text = abort.signal.aborted ? 'Stopped; nothing was changed.' : (e as Error).message;
      this.status = { level: 'error', text };
      if (!abort.signal.aborted) this.deps.notice('error', `Plugin change failed: ${text}`);
    } finally {
      this.busy = undefined;
      await this.refreshInstalled().catch(() => undefined);
      this.deps.requestRender();
    }
  }

  private async reload(): Promise<void> {
    this.update(() => (this.busy = { label: 'Reading installed.json and the plugin manifests…' }));
    try {
      const views = await this.deps.manager.reload();
      const problem = this.deps.manager.problem();
      const broken = views.filter((v) => v.error).length;
      this.status = problem
        ? { level: 'error', text: problem }
        : {
            level: broken ? 'warning' : 'success',
            text: `Reloaded ${views.length} plugin${views.length === 1 ? '' : 's'}${broken ? `; ${broken} cannot load (I shows why)` : ''}. ${APPLY_HINT}`,
          };
    } catch (e) {
      this.status = { level: 'error', text: (e as Error).message };
    } finally {
      this.busy = undefined;
      await this.refreshInstalled().catch(() => undefined);
    }
  }

  private confirmRemove(view: PluginView): void {
    this.overlay = {
      kind: 'confirm',
      title: `Remove the plugin ${view.id}?`,
      body: [`Only its install record is deleted; the copy in ${view.root} stays on disk.`],
      yes: 'Remove',
      cursor: 1,
      onYes: () =>
        void this.run(`Removing ${view.id}…`, async () => {
          await this.deps.manager.remove(view.id);
          return `Removed the plugin ${view.id}.`;
        }),
    };
  }

  private installEntry(entry: MarketplaceEntry): void {
    const installed = this.installedView(entry.id);
    const verb = installed ? 'Update' : 'Install';
    this.install(
      entry.source,
      `${entry.displayName}${entry.version ? ` ${entry.version}` : ''}`,
      entry.tier,
      needsConfirmation(entry, this.catalog),
      verb,
    );
  }

  private installCustom(): void {
    const source = this.customInput.getValue().trim();
    if (!source) {
      this.status = { level: 'warning', text: 'Type a folder path, a zip URL or a GitHub URL first.' };
      return;
    }
    this.install(source, source, 'third-party', true, 'Install', () => {
      this.customInput.setValue('');
      this.tab = 'installed';
    });
  }

  private install(
    source: string,
    label: string,
    tier: PluginTier,
    confirm: boolean,
    verb: 'Install' | 'Update',
    after?: () => void,
  ): void {
    const go = () =>
      void this.run(
        `${verb === 'Install' ? 'Installing' : 'Updating'} ${label}…`,
        async (signal) => {
          const result = await this.deps.manager.install(source, { tier, signal });
          const p = result.plugin;
          this.cursor.installed = Math.max(
            0,
            (await this.deps.manager.list()).findIndex((v) => v.id === p.id),
          );
          const shell = formatShellCommands(p);
          if (shell.length) this.deps.notice('info', shell.join('\n'));
          const needs = await installNotice(p.id, this.deps.env ?? process.env);
          if (needs.length) this.deps.notice('info', needs.join('\n'));
          const was = result.replaced ? ` (was ${result.previousVersion ?? 'installed'})` : '';
          return `${result.replaced ? 'Updated' : 'Installed'} the plugin ${p.id}${p.version ? ` ${p.version}` : ''}${was}${p.enabled ? '' : ', which stays disabled'}.`;
        },
        after,
      );
    if (!confirm) return go();
    this.overlay = {
      kind: 'confirm',
      title: `${verb} the third-party plugin ${label}?`,
      body: [
        `From ${source}`,
        'It is not an official plugin. Plugins add instructions, skills and agents, and their hooks and MCP servers run commands on this computer. Install only plugins you trust.',
      ],
      yes: verb,
      cursor: 0,
      onYes: go,
    };
  }

  private showDetails(title: string, lines: string[]): void {
    this.overlay = { kind: 'details', title, lines, offset: 0 };
  }

  // ---- rendering -----------------------------------------------------------------------------

  private visibleRows(): number {
    return Math.max(3, this.deps.rows() - 12);
  }

  invalidate(): void {
    this.customInput.invalidate();
  }

  render(width: number): string[] {
    const theme = this.deps.theme();
    const { fg } = theme;
    const box = boxWriter(theme, width);
    const tabs = PLUGIN_TABS.map((t) =>
      t === this.tab ? theme.inverse(` ${TAB_LABEL[t]} `) : fg.textDim(` ${TAB_LABEL[t]} `),
    ).join(' ');
    const lines = [box.top(), box.row(`${theme.bold(fg.primary('Plugins'))}  ${tabs}`), box.row('')];
    if (this.overlay) lines.push(...this.renderOverlay(this.overlay, box, theme));
    else {
      lines.push(...this.renderTab(box, theme));
      if (this.busy) lines.push(box.row(''), box.row(fg.accent(`⟳ ${this.busy.label}`)));
      else if (this.status) {
        const color = { info: fg.textDim, success: fg.success, warning: fg.warning, error: fg.error }[
          this.status.level
        ];
        lines.push(box.row(''), ...box.wrapped(color(this.status.text)));
      }
      lines.push(box.row(''), ...box.wrapped(fg.textMuted(this.busy ? 'Esc stops' : this.keyHint())));
    }
    lines.push(box.bottom());
    return lines;
  }

  private keyHint(): string {
    const nav = 'Tab/Shift-Tab switch tabs · Esc close';
    if (this.tab === 'installed')
      return `↑/↓ move · Space enable/disable · D remove · M MCP servers · R reload · Enter update/details · I details · ${nav}`;
    if (this.tab === 'custom') return `Enter install · ${nav}`;
    return `↑/↓ move · Enter install/update · I details · ${nav}`;
  }

  /** Rows around the cursor, at most what fits. */
  private window<T>(items: readonly T[], cursor: number): { shown: T[]; start: number } {
    const max = this.visibleRows();
    const start = Math.max(0, Math.min(cursor - Math.floor(max / 2), items.length - max));
    return { shown: items.slice(start, start + max), start };
  }

  private renderTab(box: BoxWriter, theme: Theme): string[] {
    const { fg } = theme;
    if (this.tab === 'custom') {
      return [
        ...box.wrapped(
          'Install a plugin from a local folder, a zip URL, or a GitHub URL (repository, /tree/<ref>, /releases/tag/<tag> or /commit/<sha>):',
        ),
        ...this.customInput.render(box.inner).map((l) => box.row(l)),
      ];
    }
    if (this.tab === 'installed') {
      if (!this.views) return [box.row(fg.textDim('Loading…'))];
      const out = this.installedProblem ? box.wrapped(fg.error(this.installedProblem)) : [];
      if (!this.views.length)
        return [
          ...out,
          ...box.wrapped(
            fg.textDim(
              'No plugins are installed. Tab to Official or Curated to browse the marketplace, or to Custom to install from a path or URL.',
            ),
          ),
        ];
      const { shown, start } = this.window(this.views, this.cursor.installed);
      shown.forEach((v, i) => {
        const state = pluginState(v, updateFor(v, this.catalog));
        const mark = v.enabled && !v.error ? '●' : '○';
        out.push(
          ...box.option(
            start + i === this.cursor.installed,
            `${mark} ${v.displayName}${v.version ? ` ${v.version}` : ''}`,
            fg.textDim(`${v.displayName !== v.id ? `  ${v.id}` : ''}${state ? `  (${state})` : ''}`),
          ),
        );
      });
      return out;
    }
    if (this.catalogError) return box.wrapped(fg.error(`The marketplace could not be loaded: ${this.catalogError}`));
    if (!this.catalog) return [box.row(fg.textDim('Loading the marketplace…'))];
    const entries = this.entries(this.tab);
    const out: string[] = [];
    if (!this.catalog.trusted) out.push(...box.wrapped(fg.textDim(`Marketplace ${this.catalog.location}`)));
    if (!entries.length)
      out.push(
        box.row(
          fg.textDim(
            this.tab === 'official'
              ? 'This marketplace lists no official plugins.'
              : 'This marketplace lists no other plugins.',
          ),
        ),
      );
    const { shown, start } = this.window(entries, this.cursor[this.tab]);
    shown.forEach((e, i) => {
      const installed = this.installedView(e.id);
      const state = !installed
        ? ''
        : updateFor(installed, this.catalog)
          ? ` · installed ${installed.version}, update available`
          : ' · installed';
      const tier = e.tier === 'third-party' ? ' · third-party' : '';
      out.push(
        ...box.option(
          start + i === this.cursor[this.tab],
          `${e.displayName}${e.version ? ` ${e.version}` : ''}`,
          fg.textDim(`  ${e.description ?? e.id}${tier}${state}`),
        ),
      );
    });
    if (this.catalog.diagnostics.length) {
      out.push(
        box.row(''),
        box.row(
          fg.warning(
            `${this.catalog.diagnostics.length} problem${this.catalog.diagnostics.length === 1 ? '' : 's'} in the marketplace file:`,
          ),
        ),
      );
      for (const d of this.catalog.diagnostics.slice(0, 5)) out.push(...box.wrapped(fg.warning(`- ${d}`)));
    }
    return out;
  }

  private renderOverlay(o: Overlay, box: BoxWriter, theme: Theme): string[] {
    const { fg } = theme;
    if (o.kind === 'details') {
      const max = this.visibleRows();
      const shown = o.lines.slice(o.offset, o.offset + max);
      const more =
        o.lines.length > max ? fg.textMuted(` (${o.offset + 1}–${o.offset + shown.length} of ${o.lines.length})`) : '';
      return [
        box.row(theme.bold(o.title) + more),
        ...shown.flatMap((l) => box.wrapped(l)),
        box.row(''),
        box.row(fg.textMuted('↑/↓ scroll · Esc back')),
      ];
    }
    if (o.kind === 'confirm') {
      return [
        ...box.wrapped(theme.bold(o.title)),
        ...o.body.flatMap((b) => box.wrapped(fg.textDim(b))),
        box.row(''),
        ...box.option(o.cursor === 0, `1. ${o.yes}`),
        ...box.option(o.cursor === 1, '2. Cancel'),
        box.row(''),
        box.row(fg.textMuted('↑/↓ move · Enter select · y/n · Esc cancel')),
      ];
    }
    const out = [box.row(theme.bold(`MCP servers of ${o.view.displayName}`))];
    if (!o.view.mcpServers.length) out.push(box.row(fg.textDim('This plugin declares no MCP servers.')));
    const live = this.deps.mcpStatus?.() ?? [];
    o.view.mcpServers.forEach((s, i) => {
      out.push(...box.option(i === o.cursor, `[${s.enabled ? 'x' : ' '}] ${s.name}`, fg.textDim(`  ${s.target}`)));
      out.push(...box.wrapped(fg.textDim(mcpServerStateLine(s, live)), '      '));
    });
    // The line below is this visit's own: the busy label while a switch runs, then what it said.
    if (this.busy) out.push(box.row(''), box.row(fg.accent(`⟳ ${this.busy.label}`)));
    else if (o.status) out.push(box.row(''), ...box.wrapped(fg.textDim(o.status.text)));
    out.push(box.row(''), box.row(fg.textMuted(this.busy ? 'Esc stops' : 'Space/Enter switch on/off · Esc back')));
    return out;
  }
}
