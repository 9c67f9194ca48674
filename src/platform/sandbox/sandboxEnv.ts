// The environment a sandboxed command gets (docs/sandbox.md "Secrets in the environment"): the caller's, without
// the credentials Jarvis itself reads, the well-known provider keys and the variables whose names look like
// secrets, except the names `[sandbox] env_pass` lets through. Values are never inspected; only names decide.

/** Credentials Jarvis reads from its own environment (docs/configuration.md). */
export const JARVIS_CREDENTIAL_ENV: readonly string[] = [
  'JARVIS_MODEL_API_KEY',
  'JARVIS_WEB_SEARCH_API_KEY',
  'JARVIS_WEB_FETCH_API_KEY',
];

/** Provider and cloud credentials by their well-known names, including those the name patterns would not catch. */
export const WELL_KNOWN_SECRET_ENV: readonly string[] = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'KIMI_API_KEY',
  'MOONSHOT_API_KEY',
  'GOOGLE_API_KEY',
  'GEMINI_API_KEY',
  'VERTEXAI_API_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AZURE_CLIENT_SECRET',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'NPM_TOKEN',
  'HF_TOKEN',
];

/**
 * Names that look like secrets (matched upper-cased): anything with API_KEY/APIKEY, SECRET, PASSWORD, PASSWD,
 * PASSPHRASE or CREDENTIAL in it; a name ending in TOKEN, _AUTH, KEY (after `_` or alone), _PWD or _PAT;
 * AUTH/ACCESS/REFRESH/SESSION/ID tokens and PRIVATE/ACCESS/SIGNING/ENCRYPTION keys anywhere in it.
 */
const SECRET_NAME = new RegExp(
  [
    'API_?KEY',
    'SECRET',
    'PASSWORD',
    'PASSWD',
    'PASSPHRASE',
    'CREDENTIAL',
    'TOKEN$',
    '_AUTH$',
    '(^|_)KEY$',
    '_PWD$',
    '_PAT$',
    '(AUTH|ACCESS|REFRESH|SESSION|ID)_?TOKEN',
    '(PRIVATE|ACCESS|SIGNING|ENCRYPTION)_?KEY',
  ].join('|'),
);

const LISTED = new Set([...JARVIS_CREDENTIAL_ENV, ...WELL_KNOWN_SECRET_ENV]);
/** Jarvis's own settings whose names end like a secret's but hold none (docs/configuration.md). */
const NOT_SECRETS = new Set(['JARVIS_MODEL_REASONING_KEY']);

/** Whether a variable is kept out of the sandbox by default. */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (NOT_SECRETS.has(upper)) return false;
  // An exported bash function (`BASH_FUNC_name%%`) is judged by its name, so `%%` hides no `…TOKEN` ending.
  const bare = /^BASH_FUNC_(.*)%%$/.exec(upper)?.[1] ?? upper;
  return [upper, bare].some((n) => LISTED.has(n) || SECRET_NAME.test(n));
}

/** `env` without its secret-looking variables; names in `pass` stay (exactly as spelled). */
export function sandboxEnv(env: Readonly<NodeJS.ProcessEnv>, pass: readonly string[] = []): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (pass.includes(name) || !isSecretEnvName(name))) kept[name] = value;
  }
  return kept;
}
