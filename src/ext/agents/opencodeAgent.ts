// opencode's agent files (`.opencode/agent/*.md`, `.opencode/agents/*.md`; docs/compatibility.md): the fields that
// map onto a Jarvis agent (`description`, `mode`, `tools: {write: false}`, `model`) are read by agentFile.ts; this module
// says, per file, what is not applied and why, so nothing is dropped silently. `disable: true` leaves the agent out.
import { readMarkdownFile } from '../frontmatter';

const MODES = ['primary', 'subagent', 'all'];

/** Fields Jarvis reads from an opencode agent file (their meaning carries over). */
const MAPPED = new Set(['name', 'description', 'mode', 'tools', 'disable', 'model']);

const NOT_APPLIED: Record<string, string> = {
  permission: 'Jarvis asks by its own approval rules; write [[permission.rules]] in config.toml instead',
  temperature: 'sampling settings belong to the model entry ([models.<alias>] in config.toml)',
  top_p: 'sampling settings belong to the model entry ([models.<alias>] in config.toml)',
  prompt: "the file body is the agent's prompt",
};

export interface OpencodeAgentNotes {
  /** One line per field that is not applied, naming the file and the field. */
  notes: string[];
  /** `disable: true`: the file is not loaded. */
  disabled: boolean;
}

export async function opencodeAgentNotes(path: string): Promise<OpencodeAgentNotes> {
  const parsed = await readMarkdownFile(path);
  // A file that does not parse is reported by parseAgentFile; nothing more to say here.
  if (!parsed.ok) return { notes: [], disabled: false };
  const notes: string[] = [];
  const data = parsed.data;
  if (data.mode !== undefined && !MODES.includes(String(data.mode)))
    notes.push(`${path}: opencode agent mode ${JSON.stringify(data.mode)} is not one of ${MODES.join(', ')} (ignored)`);
  for (const key of Object.keys(data)) {
    if (MAPPED.has(key)) continue;
    const why = NOT_APPLIED[key] ?? 'Jarvis has no such agent setting';
    notes.push(`${path}: opencode agent field "${key}" is not applied: ${why}`);
  }
  return { notes, disabled: data.disable === true };
}
