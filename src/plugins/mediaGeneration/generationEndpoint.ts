// Where the image_generation / audio_generation plugins send their requests (docs/plugins-official.md):
// `[services.<kind>]` of $JARVIS_CODE_HOME/config.toml, read with the CLI's own config parser, and
// JARVIS_<KIND>_BASE_URL / _API_KEY / _MODEL (/ _VOICE) over it. Without a base URL the plugin offers
// no tool at all.
import { existsSync, readFileSync } from 'node:fs';
import { parseConfigText } from '../../store/config';
import { configPath, displayPath, jarvisHome } from '../../store/paths';

export type GenerationKind = 'image_generation' | 'audio_generation';

export interface GenerationEndpoint {
  /** OpenAI-style base URL, e.g. https://api.openai.com/v1 (paths like /images/generations are appended). */
  baseUrl: string;
  apiKey?: string;
  model?: string;
  voice?: string;
  headers: Record<string, string>;
}

export type EndpointLookup =
  | { state: 'ready'; endpoint: GenerationEndpoint }
  /** Not configured: the server offers no tools; `why` says how to configure it. */
  | { state: 'absent'; why: string }
  /** config.toml cannot be read: the tools answer with this message. */
  | { state: 'broken'; why: string };

export function envPrefix(kind: GenerationKind): string {
  return `JARVIS_${kind.toUpperCase()}_`;
}

export function lookUpEndpoint(kind: GenerationKind, env: NodeJS.ProcessEnv = process.env): EndpointLookup {
  const path = configPath(jarvisHome(env));
  let configured: {
    base_url?: string;
    api_key?: string;
    model?: string;
    voice?: string;
    custom_headers?: Record<string, string>;
  } = {};
  if (existsSync(path)) {
    try {
      configured = parseConfigText(readFileSync(path, 'utf8'), path).config.services[kind] ?? {};
    } catch (e) {
      return {
        state: 'broken',
        why: `${kind} cannot read its settings: ${(e as Error).message.split('\n')[0]} — fix ${displayPath(path)} (jarvis doctor checks it), then run /reload.`,
      };
    }
  }
  const prefix = envPrefix(kind);
  const fromEnv = (name: string) => env[`${prefix}${name}`]?.trim() || undefined;
  const baseUrl = fromEnv('BASE_URL') ?? configured.base_url;
  if (!baseUrl) {
    return {
      state: 'absent',
      why: `${kind} is not configured: set base_url (and api_key) in [services.${kind}] of ${displayPath(path)}, or ${prefix}BASE_URL / ${prefix}API_KEY, then run /reload.`,
    };
  }
  if (!/^https?:\/\//i.test(baseUrl))
    return {
      state: 'broken',
      why: `${kind}: base_url "${baseUrl}" must be an http(s) URL such as https://api.openai.com/v1.`,
    };
  return {
    state: 'ready',
    endpoint: {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      apiKey: fromEnv('API_KEY') ?? configured.api_key,
      model: fromEnv('MODEL') ?? configured.model,
      voice: fromEnv('VOICE') ?? configured.voice,
      headers: configured.custom_headers ?? {},
    },
  };
}
