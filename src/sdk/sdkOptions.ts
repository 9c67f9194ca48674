// The options of query() checked before anything runs (docs/sdk.md "Options"), and what a launch reads from them: the
// environment, with `provider` written into the JARVIS_MODEL_* channel store/modelResolution.ts already reads, so a
// program needs no config file; and the model `setModel` switches to.
import { loadConfig } from '../store/config';
import { defaultConfig } from '../store/configSchema';
import { resolveModel } from '../store/modelResolution';
import { configPath, jarvisHome } from '../store/paths';
import type { ResolvedModel } from '../llm/types';
import type { Options, QueryArgs } from './api';
import { checkHooks } from './sdkHooks';

const MODES = ['manual', 'auto', 'yolo', 'plan'];
const PROVIDER_TYPES = ['openai', 'openai_responses', 'anthropic', 'kimi'];

function positive(name: string, value: unknown, whole: boolean): void {
  if (value === undefined) return;
  const ok = typeof value === 'number' && Number.isFinite(value) && value > 0 && (!whole || Number.isInteger(value));
  if (!ok)
    throw new TypeError(`options.${name} must be a ${whole ? 'whole number ≥ 1' : 'number > 0'}, got ${String(value)}`);
}

/** Throws a TypeError naming the option for anything query() cannot run with. */
export function checkOptions(prompt: QueryArgs['prompt'], options: Options): void {
  const iterable = prompt && typeof (prompt as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
  if (typeof prompt !== 'string' && !iterable)
    throw new TypeError('query(): prompt must be a string or an async iterable of { type: "user", content } messages');
  if (typeof prompt === 'string' && !prompt.trim()) throw new TypeError('query(): prompt is empty');
  const mode = options.permissionMode ?? 'auto';
  if (!MODES.includes(mode))
    throw new TypeError(`options.permissionMode must be one of ${MODES.join(', ')}, got ${String(mode)}`);
  if (options.canUseTool !== undefined && typeof options.canUseTool !== 'function')
    throw new TypeError('options.canUseTool must be a function');
  checkEnv(options.env);
  if (mode === 'manual' && !options.canUseTool)
    throw new TypeError(
      'options.permissionMode "manual" asks before tools run, and nothing can answer: give options.canUseTool, or use "auto" (the default).',
    );
  checkHooks(options.hooks);
  positive('maxTurns', options.maxTurns, true);
  positive('maxBudgetUsd', options.maxBudgetUsd, false);
  positive('timeoutMs', options.timeoutMs, true);
  if (options.forkSession && !options.resume) throw new TypeError('options.forkSession needs options.resume');
  if (options.resume !== undefined && (typeof options.resume !== 'string' || !options.resume.trim()))
    throw new TypeError('options.resume must be a session id');
  for (const s of options.settingSources ?? [])
    if (s !== 'user' && s !== 'project')
      throw new TypeError(`options.settingSources: expected "user" or "project", got ${String(s)}`);
  const p = options.provider;
  if (p) {
    if (!PROVIDER_TYPES.includes(p.type))
      throw new TypeError(`options.provider.type must be one of ${PROVIDER_TYPES.join(', ')}, got ${String(p.type)}`);
    if (typeof p.apiKey !== 'string' || !p.apiKey) throw new TypeError('options.provider.apiKey is required');
    if (!options.model) throw new TypeError('options.provider needs options.model: the model id to ask for');
  }
}

/** The environment the launch reads: options.env (else process.env), with `provider` as JARVIS_MODEL_*. */
export function launchEnv(options: Options): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  const p = options.provider;
  if (!p) return env;
  for (const key of Object.keys(env)) if (key.startsWith('JARVIS_MODEL_')) delete env[key];
  env.JARVIS_MODEL_NAME = options.model;
  env.JARVIS_MODEL_API_KEY = p.apiKey;
  env.JARVIS_MODEL_PROVIDER_TYPE = p.type;
  if (p.baseUrl) env.JARVIS_MODEL_BASE_URL = p.baseUrl;
  if (p.capabilities) env.JARVIS_MODEL_CAPABILITIES = p.capabilities.join(',');
  if (p.maxContextSize) env.JARVIS_MODEL_MAX_CONTEXT_SIZE = String(p.maxContextSize);
  if (p.maxOutputSize) env.JARVIS_MODEL_MAX_OUTPUT_SIZE = String(p.maxOutputSize);
  return env;
}

/** The model `setModel(model)` names: an alias of config.toml, or with `provider` another model id of it. */
export function modelFor(options: Options, model: string): ResolvedModel {
  const env = launchEnv({ ...options, model });
  const home = jarvisHome(env);
  const loaded = options.settingSources?.length
    ? loadConfig(home)
    : { config: defaultConfig(), path: configPath(home) };
  return resolveModel({
    config: loaded.config,
    env,
    cliModel: options.provider ? undefined : model,
    configPath: loaded.path,
  }) as ResolvedModel;
}

/** `env` is the whole environment of the session's processes (docs/sdk.md): names to strings, nothing else. */
function checkEnv(env: unknown): void {
  if (env === undefined) return;
  if (typeof env !== 'object' || env === null || Array.isArray(env))
    throw new TypeError('options.env must be an object of variable names to strings, e.g. { ...process.env, CI: "1" }');
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && typeof value !== 'string')
      throw new TypeError(`options.env.${name} must be a string, got ${typeof value}`);
}
