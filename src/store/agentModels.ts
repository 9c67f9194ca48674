// Which configured model an agent file's `model:` (or an Agent call's `model`) names (docs/skills-and-agents.md,
// "A model per agent"). Agent files written for Claude Code say `sonnet`, `opus`, `haiku`, `inherit` or a full
// model id; opencode's say `provider/model`. Each is looked up, in order, as: `inherit` (the caller's model), a
// `[model_aliases]` entry, a `[models.<alias>]` name, a configured model's id, a `provider/model` pair of a
// configured model, and — for Claude Code's family names — the first configured model whose id contains it.
// What names no configured model is reported with what would fix it; the caller then keeps its own model.
import type { JarvisConfig } from './configSchema';
import { ModelConfigError, resolveModel, type ResolveModelInput } from './modelResolution';
import type { ResolvedModel } from '../types/models';

/** What a `model:` value comes to. */
export type AgentModelChoice =
  { kind: 'inherit' } | { kind: 'model'; model: ResolvedModel } | { kind: 'unresolved'; reason: string };

/** Resolves `model:` values for one launch (its config), caching each value's answer. */
export type AgentModelResolver = (value: string) => AgentModelChoice;

/** Values that mean "the caller's own model". */
const INHERIT = new Set(['inherit', 'primary']);
/** Claude Code's model family names: matched against configured model ids. */
const FAMILIES = ['opus', 'sonnet', 'haiku'];

/** The `[models]` alias a value names, or why there is none. */
export function agentModelAlias(config: JarvisConfig, value: string): { alias: string } | { reason: string } {
  const v = value.trim();
  const lower = v.toLowerCase();
  const models = Object.entries(config.models);
  const byKey = (key: string) => Object.keys(config.models).find((a) => a.toLowerCase() === key.toLowerCase());
  const mapped = Object.entries(config.model_aliases).find(([name]) => name.toLowerCase() === lower)?.[1];
  if (mapped) return { alias: mapped };
  const named = byKey(v);
  if (named) return { alias: named };
  const sameId = models.find(([, m]) => m.model.toLowerCase() === lower);
  if (sameId) return { alias: sameId[0] };
  const slash = v.indexOf('/');
  if (slash > 0) {
    // opencode's `provider/model`: our provider table's name and the model id; else the id alone.
    const [provider, id] = [v.slice(0, slash).toLowerCase(), v.slice(slash + 1).toLowerCase()];
    const pair =
      models.find(([, m]) => m.provider.toLowerCase() === provider && m.model.toLowerCase() === id) ??
      models.find(([, m]) => m.model.toLowerCase() === id);
    if (pair) return { alias: pair[0] };
  }
  if (FAMILIES.includes(lower)) {
    const family = models.find(([, m]) => new RegExp(`(^|[^a-z])${lower}([^a-z]|$)`).test(m.model.toLowerCase()));
    if (family) return { alias: family[0] };
  }
  const known = Object.keys(config.models);
  return {
    reason:
      `no configured model is "${v}"` +
      (known.length ? ` (models: ${known.join(', ')})` : ' (config.toml defines no [models.<alias>])') +
      `; map it with [model_aliases] ${JSON.stringify(v)} = "<alias>" in config.toml`,
  };
}

/** A resolver over this launch's config: each value resolved once (credentials included). */
export function agentModelResolver(input: Omit<ResolveModelInput, 'cliModel'>): AgentModelResolver {
  const answers = new Map<string, AgentModelChoice>();
  return (value) => {
    const key = value.trim().toLowerCase();
    const known = answers.get(key);
    if (known) return known;
    let answer: AgentModelChoice;
    if (!key || INHERIT.has(key)) answer = { kind: 'inherit' };
    else {
      const found = agentModelAlias(input.config, value);
      if ('reason' in found) answer = { kind: 'unresolved', reason: found.reason };
      else {
        try {
          answer = { kind: 'model', model: resolveModel({ ...input, cliModel: found.alias }) };
        } catch (e) {
          if (!(e instanceof ModelConfigError)) throw e;
          answer = { kind: 'unresolved', reason: `model "${found.alias}" cannot be used: ${e.message}` };
        }
      }
    }
    answers.set(key, answer);
    return answer;
  };
}
