// Builds an agent's system prompt from its template — an agent file's body, $JARVIS_CODE_HOME/SYSTEM.md
// or the built-in one — filling ${variables} (`${base_prompt}` is the built-in prompt, filled). Unknown variables stay verbatim; a bare `$` is literal; missing values are empty.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { platform, release } from 'node:os';
import { basename, join } from 'node:path';
import type { CompatSettings } from '../../store/compat';
import { scanInstructionFiles } from './instructionFiles';
import builtinTemplate from './systemPrompt.md';

/** AGENTS.md files larger than this raise the `agents-md-oversized` warning. */
export const AGENTS_MD_WARN_BYTES = 32 * 1024;
const LISTING_MAX_ENTRIES = 60;

export interface SystemPromptInput {
  home: string;
  cwd: string;
  productName?: string;
  additionalDirs?: string[];
  now?: Date;
  env?: NodeJS.ProcessEnv;
  /** The agent's own template (an agent file's body); the built-in prompt otherwise. */
  agentPrompt?: string;
  /** Whether a non-empty SYSTEM.md replaces the built-in prompt (main agent only; off under --agent <other>). */
  allowSystemMd?: boolean;
  /** `${skills}`: the compact skill listing (name: description per line); empty when there are none. */
  skills?: string;
  /** `${plugin_sections}`: the enabled plugins' instructions, already within their budget. */
  pluginSections?: string;
  /** `[compat]`: CLAUDE.md and nested AGENTS.md (docs/compatibility.md); default: both read. */
  compat?: CompatSettings;
}

export interface SystemPromptResult {
  text: string;
  warnings: string[];
  /** Where each AGENTS.md came from, for /usage-style breakdowns. */
  agentsMdSources: string[];
}

export function renderPromptTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\$\{([a-z_]+)\}/g, (whole, name: string) => (name in vars ? vars[name] : whole));
}

function cwdListing(cwd: string): string {
  try {
    const entries = readdirSync(cwd, { withFileTypes: true })
      .filter((e) => !['.git', 'node_modules'].includes(e.name))
      .sort((a, b) => a.name.localeCompare(b.name));
    const shown = entries.slice(0, LISTING_MAX_ENTRIES).map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
    if (entries.length > LISTING_MAX_ENTRIES) shown.push(`… and ${entries.length - LISTING_MAX_ENTRIES} more`);
    return shown.join('\n') || '(empty)';
  } catch {
    return '(unreadable)';
  }
}

function agentsMd(input: SystemPromptInput, warnings: string[], sources: string[]): string {
  const scan = scanInstructionFiles(input.home, input.cwd, input.compat);
  warnings.push(...scan.warnings);
  const sections: string[] = [];
  for (const file of scan.files) {
    if (file.bytes > AGENTS_MD_WARN_BYTES) {
      warnings.push(
        `agents-md-oversized: ${file.path} is ${file.bytes} bytes (over ${AGENTS_MD_WARN_BYTES}); ` +
          'it costs context on every request',
      );
    }
    sources.push(file.path);
    sections.push(`<agents-md path="${file.path}">\n${file.text}\n</agents-md>`);
  }
  if (!sections.length) return '';
  const intro =
    'The user wrote these instructions for agents working here. Follow them; they take precedence over the ' +
    'general guidance above. Later files are more specific and win where they disagree.';
  return `\n# Project instructions (AGENTS.md)\n${intro}\n${sections.join('\n')}\n`;
}

/** True when $JARVIS_CODE_HOME/SYSTEM.md exists with content (it then replaces the built-in main prompt). */
export function hasSystemMd(home: string): boolean {
  try {
    return readFileSync(join(home, 'SYSTEM.md'), 'utf8').trim().length > 0;
  } catch {
    return false;
  }
}

export function buildSystemPrompt(input: SystemPromptInput): SystemPromptResult {
  const warnings: string[] = [];
  const sources: string[] = [];
  let template = input.agentPrompt ?? builtinTemplate;
  const override = join(input.home, 'SYSTEM.md');
  if (input.agentPrompt === undefined && input.allowSystemMd !== false && existsSync(override)) {
    try {
      const text = readFileSync(override, 'utf8');
      if (text.trim()) template = text;
    } catch (e) {
      warnings.push(
        `could not read ${override} (${e instanceof Error ? e.message : e}); using the built-in system prompt`,
      );
    }
  }
  const shellPath = input.env?.SHELL ?? process.env.SHELL ?? '/bin/bash';
  const dirs = input.additionalDirs ?? [];
  const vars: Record<string, string> = {
    product_name: input.productName ?? 'Jarvis',
    cwd: input.cwd,
    os: `${platform()} ${release()}`,
    shell: `${basename(shellPath)} (\`${shellPath}\`)`,
    now: (input.now ?? new Date()).toISOString(),
    cwd_listing: cwdListing(input.cwd),
    agents_md: agentsMd(input, warnings, sources),
    additional_dirs_info: dirs.length ? `- Additional workspace folders: ${dirs.join(', ')}` : '',
    skills: input.skills ?? '',
    plugin_sections: input.pluginSections ?? '',
    windows_notes: '',
    additional_dirs_section: '',
    skills_section: input.skills
      ? `\n# Skills\nWhen one fits the task, load it with the Skill tool first and follow it.\n${input.skills}\n`
      : '',
    base_prompt: '',
  };
  vars.base_prompt = renderPromptTemplate(builtinTemplate, vars).trim();
  return { text: renderPromptTemplate(template, vars).trim(), warnings, agentsMdSources: sources };
}
