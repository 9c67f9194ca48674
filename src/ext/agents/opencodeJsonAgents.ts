// The `agent` section of opencode's config files (docs/compatibility.md "opencode.json"): each entry is an agent as an
// opencode agent file would be — `description`, `mode` (a `primary` one needs no description and is never delegated
// to), `model`, `prompt` (text or `{file:./x.txt}`; without one the built-in prompt), `tools: {write: false}`,
// `disable`. An entry that only configures one of opencode's own agents (`build`, `plan`, `general`, `explore`…) is
// said and skipped: Jarvis's own agents are `agent`, `coder`, `explore` and `plan`.
import { opencodeFileRef, opencodeSection, type OpencodeConfigFile } from '../../store/opencodeConfig';
import { canonicalToolName } from '../../types/toolNames';
import { normaliseAgentName, type AgentProfile } from './agentFile';

const OPENCODE_BUILTIN = new Set(['build', 'plan', 'general', 'explore', 'title', 'summary', 'compaction']);
const MAPPED = new Set(['description', 'mode', 'model', 'prompt', 'tools', 'disable']);
const WHY: Record<string, string> = {
  permission: 'Jarvis asks by its own approval rules; write [[permission.rules]] in config.toml instead',
  temperature: 'sampling settings belong to the model entry ([models.<alias>] in config.toml)',
  top_p: 'sampling settings belong to the model entry ([models.<alias>] in config.toml)',
};

export function opencodeJsonAgents(
  files: readonly OpencodeConfigFile[],
  env: NodeJS.ProcessEnv,
): { agents: AgentProfile[]; warnings: string[] } {
  const warnings: string[] = [];
  const byName = new Map<string, AgentProfile>();
  // User files first; the project's replace an agent of the same name.
  for (const file of files) {
    for (const [written, entry] of opencodeSection(file, ['agent', 'agents'], warnings)) {
      const where = `${file.path}: agent "${written}"`;
      if (entry.disable === true) continue;
      if (OPENCODE_BUILTIN.has(written)) {
        warnings.push(
          `${where} configures opencode's own agent and is not used (Jarvis's agents: agent, coder, explore, plan)`,
        );
        continue;
      }
      const name = normaliseAgentName(written);
      if (!name) {
        warnings.push(`agent file skipped: ${where} has no letters or digits to name the agent by`);
        continue;
      }
      const mode = typeof entry.mode === 'string' ? entry.mode : undefined;
      if (mode !== undefined && !['primary', 'subagent', 'all'].includes(mode))
        warnings.push(`${where}: mode "${mode}" is not one of primary, subagent, all (ignored)`);
      const primary = mode === 'primary';
      const described = typeof entry.description === 'string' ? entry.description.trim() : '';
      if (!described && !primary) {
        warnings.push(`agent file skipped: ${where} needs a "description" (only a primary agent may go without one)`);
        continue;
      }
      let prompt: string | undefined;
      if (typeof entry.prompt === 'string') {
        const read = opencodeFileRef(entry.prompt, file.path, env);
        if ('error' in read) {
          warnings.push(`agent file skipped: ${read.error}`);
          continue;
        }
        prompt = read.text.trim() || undefined;
      }
      const tools = entry.tools && typeof entry.tools === 'object' ? (entry.tools as Record<string, unknown>) : {};
      for (const k of Object.keys(entry).filter((key) => !MAPPED.has(key)))
        warnings.push(`${where}: field "${k}" is not applied: ${WHY[k] ?? 'Jarvis has no such agent setting'}`);
      byName.set(name, {
        name,
        description: described || `opencode primary agent ${name}`,
        override: false,
        tools: '*',
        disallowedTools: Object.entries(tools)
          .filter(([, on]) => on === false)
          .map(([tool]) => canonicalToolName(tool)),
        ...(prompt ? { prompt } : {}),
        ...(typeof entry.model === 'string' && entry.model.trim() ? { model: entry.model.trim() } : {}),
        ...(primary ? { primaryOnly: true } : {}),
        path: file.path,
        source: file.scope,
      });
    }
  }
  return { agents: [...byName.values()], warnings };
}
