// The experimental subagent model pool (SPEC §3.5, docs/skills-and-agents.md "Model pool"): with
// JARVIS_CODE_EXPERIMENTAL_SECONDARY_MODEL=1 (or JARVIS_CODE_EXPERIMENTAL_FLAG=1), `[secondary_model]`
// names the models Agent and AgentSwarm may run a subagent on. The config file is already checked by
// config.ts (force without models, default_model among the pool); here the aliases are resolved.
import type { ResolvedModel } from '../types/models';
import type { JarvisConfig } from './configSchema';
import { resolveModel } from './modelResolution';
import { envValue, parseBooleanWord } from './settings';

/** The reserved pool entry: the calling agent's own model. */
export const PRIMARY_MODEL = 'primary';

export interface PoolModel {
  alias: string;
  /** Shown to the model next to the alias ('' = none). */
  hint: string;
  /** Undefined for `primary` (the caller's model). */
  model?: ResolvedModel;
}

export interface SubagentModelPool {
  /** The choices, in config order (`primary` is always a valid choice, listed or not). */
  models: PoolModel[];
  /** What a subagent runs on when the call names no model. */
  defaultAlias: string;
  /** `force = true`: every subagent runs on `defaultAlias`; the `model` argument is not offered. */
  force: boolean;
}

function experimentOn(env: NodeJS.ProcessEnv): boolean {
  return ['JARVIS_CODE_EXPERIMENTAL_SECONDARY_MODEL', 'JARVIS_CODE_EXPERIMENTAL_FLAG'].some(
    (name) => parseBooleanWord(envValue(env, name) ?? '') === true,
  );
}

/**
 * The pool, or undefined when the experiment is off or `[secondary_model]` configures none (then
 * subagents run on their caller's model). Throws (a ModelConfigError) when an alias cannot be resolved.
 */
export function subagentModelPool(
  config: JarvisConfig,
  env: NodeJS.ProcessEnv,
  configPath: string,
): SubagentModelPool | undefined {
  const secondary = config.secondary_model;
  if (!secondary?.default_model || !experimentOn(env)) return undefined;
  const hints: Record<string, string> = secondary.models ?? { [secondary.default_model]: '' };
  const models = Object.entries(hints).map(([alias, hint]): PoolModel => ({
    alias,
    hint,
    ...(alias === PRIMARY_MODEL ? {} : { model: resolveModel({ config, env, cliModel: alias, configPath }) }),
  }));
  return { models, defaultAlias: secondary.default_model, force: secondary.force };
}
