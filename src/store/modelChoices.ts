// The models a session can switch to (docs/server.md "Endpoints"): the aliases of config.toml that the terminal's
// /model picker offers (SessionControl.modelAliases), each resolved as a switch would resolve it, and the model
// the session talks to now first when no alias names it (the JARVIS_MODEL_* channel), as ACP lists them.
import type { Capability, ResolvedModel } from '../types/models';
import type { JarvisConfig } from './configSchema';
import { ModelConfigError, resolveModel } from './modelResolution';

export interface ModelChoice {
  alias: string;
  /** The provider's name in config.toml ([providers.<name>]). */
  provider: string;
  /** The model id sent to the provider. */
  model: string;
  display_name: string;
  current: boolean;
  /** Tokens a request may hold (max_input_size when set, else max_context_size); null when the alias does not resolve. */
  context_window: number | null;
  /** 'none': the model cannot think; 'optional': it can be switched on and off; 'always': it always thinks. */
  thinking: 'none' | 'optional' | 'always';
  /** Why switching to this alias would fail (its provider or key is missing); null when it resolves. */
  problem: string | null;
}

export interface ModelSource {
  config: JarvisConfig;
  configPath: string;
  env: NodeJS.ProcessEnv;
}

function thinkingOf(capabilities: readonly Capability[]): ModelChoice['thinking'] {
  if (capabilities.includes('always_thinking')) return 'always';
  return capabilities.includes('thinking') ? 'optional' : 'none';
}

function choiceOf(m: ResolvedModel, current: boolean): ModelChoice {
  return {
    alias: m.alias,
    provider: m.providerName,
    model: m.model,
    display_name: m.displayName,
    current,
    context_window: m.maxInputSize ?? m.maxContextSize,
    thinking: thinkingOf(m.capabilities),
    problem: null,
  };
}

/** The choices, in config.toml's order; an alias that does not resolve is listed with the reason, not dropped. */
export function listModelChoices(source: ModelSource | undefined, current: ResolvedModel): ModelChoice[] {
  const aliases = Object.keys(source?.config.models ?? {});
  const choices = aliases.map((alias): ModelChoice => {
    if (alias === current.alias) return choiceOf(current, true);
    try {
      return choiceOf(resolveModel({ ...source!, cliModel: alias }), false);
    } catch (e) {
      if (!(e instanceof ModelConfigError)) throw e;
      const table = source!.config.models[alias];
      return {
        alias,
        provider: table.provider,
        model: table.model,
        display_name: table.display_name ?? table.model,
        current: false,
        context_window: null,
        thinking: 'none',
        problem: e.message,
      };
    }
  });
  if (!aliases.includes(current.alias)) choices.unshift(choiceOf(current, true));
  return choices;
}
