// `jarvis doctor [config|tui] [path]` (docs/configuration.md): validates the config files and reports each one.
// It only reads: a missing default file is "skipped" (not created), an explicitly named file must exist.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseConfigText } from './config';
import { ConfigError } from './configFields';
import { defaultConfig } from './configSchema';
import { ENV_MODEL_ALIAS } from '../types/models';
import { resolveModel } from './modelResolution';
import { configPath, displayPath, tuiConfigPath } from './paths';
import { parseTuiConfigText } from './tuiConfig';

export type DoctorTarget = 'config' | 'tui';
export type DoctorStatus = 'valid' | 'skipped' | 'missing' | 'invalid';

export interface DoctorFileReport {
  target: DoctorTarget;
  path: string;
  status: DoctorStatus;
  /** Why it is invalid, missing or skipped. */
  message?: string;
  warnings: string[];
}

export interface DoctorReport {
  /** True when every file is valid or skipped and the model resolves (exit code 0). */
  ok: boolean;
  files: DoctorFileReport[];
  /** Whether the default model resolves (config, JARVIS_MODEL_*, provider type, key); absent for tui-only checks. */
  model?: { ok: boolean; message: string };
}

export interface DoctorOptions {
  home: string;
  target?: DoctorTarget;
  /** An explicit file; it must exist. Without `target`, a file named tui.toml is checked as tui. */
  path?: string;
  /** For the JARVIS_MODEL_* channel; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Resolves the model a session would start with, from a config file that checked valid (or none). */
function checkModel(config: DoctorFileReport, env: NodeJS.ProcessEnv): DoctorReport['model'] {
  const parsed =
    config.status === 'valid'
      ? parseConfigText(readFileSync(config.path, 'utf8'), config.path).config
      : defaultConfig();
  try {
    const model = resolveModel({ config: parsed, env, configPath: config.path });
    const key = model.apiKeySource ? `, API key from ${model.apiKeySource}` : '';
    // The JARVIS_MODEL_* model has an internal alias and provider name, never shown (types/models.ts).
    const fromEnv = model.alias === ENV_MODEL_ALIAS;
    const which = fromEnv ? 'the model of the JARVIS_MODEL_* variables' : `model "${model.alias}"`;
    const via = fromEnv ? '' : ` via provider "${model.providerName}"`;
    const where = model.baseUrl ?? 'the default URL';
    return { ok: true, message: `${which} resolves: ${model.model}${via} (${model.providerType}) at ${where}${key}` };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

function check(target: DoctorTarget, path: string, explicit: boolean): DoctorFileReport {
  if (!existsSync(path)) {
    return explicit
      ? { target, path, status: 'missing', message: `${displayPath(path)}: no such file`, warnings: [] }
      : { target, path, status: 'skipped', message: `${displayPath(path)} does not exist`, warnings: [] };
  }
  try {
    const text = readFileSync(path, 'utf8');
    const { warnings } = target === 'config' ? parseConfigText(text, path) : parseTuiConfigText(text, path);
    return { target, path, status: 'valid', warnings };
  } catch (err) {
    if (err instanceof ConfigError) return { target, path, status: 'invalid', message: err.message, warnings: [] };
    const message = `${displayPath(path)}: ${err instanceof Error ? err.message : String(err)}`;
    return { target, path, status: 'invalid', message, warnings: [] };
  }
}

export function runDoctor(opts: DoctorOptions): DoctorReport {
  let files: DoctorFileReport[];
  if (opts.path !== undefined) {
    const target = opts.target ?? (basename(opts.path) === 'tui.toml' ? 'tui' : 'config');
    files = [check(target, opts.path, true)];
  } else {
    const targets: DoctorTarget[] = opts.target ? [opts.target] : ['config', 'tui'];
    files = targets.map((t) => check(t, t === 'config' ? configPath(opts.home) : tuiConfigPath(opts.home), false));
  }
  const filesOk = files.every((f) => f.status === 'valid' || f.status === 'skipped');
  const config = files.find((f) => f.target === 'config');
  const model = config && filesOk ? checkModel(config, opts.env ?? process.env) : undefined;
  return { ok: filesOk && (model?.ok ?? true), files, ...(model ? { model } : {}) };
}

/** Plain text, one block per file, for the terminal. */
export function formatDoctorReport(report: DoctorReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
    lines.push(`${file.target === 'config' ? 'config.toml' : 'tui.toml'} (${displayPath(file.path)}): ${file.status}`);
    if (file.message && file.status !== 'valid') lines.push(`  ${file.message}`);
    for (const warning of file.warnings) lines.push(`  warning: ${warning}`);
  }
  if (report.model) lines.push(`model: ${report.model.ok ? 'ok' : 'not resolved'}`, `  ${report.model.message}`);
  lines.push(report.ok ? 'All checks passed.' : 'Some checks need attention.');
  return lines.join('\n');
}
