// A config.toml with two models on one loopback mock server — `main` (main-model, the default) and `fast`
// (fast-model) — and Claude Code's `haiku` mapped to `fast`, for the tests of a model per agent.
export function twoModelsConfig(baseUrl: string): string {
  return [
    'default_model = "main"',
    `[providers.mock]\ntype = "openai"\nbase_url = "${baseUrl}"\napi_key = "k"`,
    '[models.main]\nprovider = "mock"\nmodel = "main-model"\nmax_context_size = 100000',
    '[models.fast]\nprovider = "mock"\nmodel = "fast-model"\nmax_context_size = 100000',
    '[model_aliases]\nhaiku = "fast"',
  ].join('\n\n');
}
