// Which environment variables a sandboxed command gets (docs/sandbox.md "Secrets in the environment"), and the
// `[sandbox] env_pass` and `shell_mode` keys of config.toml: bad shapes are config errors naming the key.
import { describe, expect, it } from 'vitest';
import { isSecretEnvName, sandboxEnv } from '../../../src/platform/sandbox/sandboxEnv';
import { sandboxSpawnEnv } from '../../../src/platform/processes';
import { parseConfigText } from '../../../src/store/config';
import { configTextError } from '../../helpers/configErrors';

describe('the environment inside the sandbox', () => {
  it.each([
    'JARVIS_MODEL_API_KEY',
    'JARVIS_WEB_SEARCH_API_KEY',
    'JARVIS_WEB_FETCH_API_KEY',
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'GITHUB_TOKEN',
    'CI_JOB_TOKEN',
    'TOKEN',
    'DB_PASSWORD',
    'MYSQL_PWD_PASSWD',
    'GPG_PASSPHRASE',
    'JWT_SECRET',
    'CLIENT_SECRET_V2',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'npm_config__auth',
    'npm_config_//registry.npmjs.org/:_authToken',
    'SSH_PRIVATE_KEY',
    'STRIPE_APIKEY',
    'openai_api_key',
    // Attacks of issue 35: case tricks, exported bash functions, and endings the first patterns missed.
    'Api_Key',
    'openAI_apiKey',
    'github_token',
    'Jarvis_Model_Api_Key',
    'BASH_FUNC_get_token%%',
    'BASH_FUNC_github_token%%',
    'BASH_FUNC_npm_auth%%',
    'BASH_FUNC_OPENAI_API_KEY%%',
    'OPENAI_KEY',
    'ANTHROPIC_KEY',
    'KEY',
    'MYSQL_PWD',
    'GH_PAT',
  ])('drops %s', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
    expect(sandboxEnv({ [name]: 'v', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it.each([
    'PATH',
    'HOME',
    'TERM',
    'LANG',
    'JARVIS_MODEL_MAX_COMPLETION_TOKENS',
    'JARVIS_MODEL_REASONING_KEY',
    'JARVIS_TOKEN_COUNTING_STRATEGY',
    'SSH_AUTH_SOCK',
    'GIT_AUTHOR_NAME',
    'KEYBOARD_LAYOUT',
    'PWD',
    'OLDPWD',
    'MONKEY',
    'BASH_FUNC_ls%%',
    'NODE_OPTIONS',
    'LD_PRELOAD',
  ])('keeps %s', (name) => {
    expect(isSecretEnvName(name)).toBe(false);
    expect(sandboxEnv({ [name]: 'v' })).toEqual({ [name]: 'v' });
  });

  it('lets the env_pass names through, exactly as spelled, and nothing else', () => {
    const env = { NPM_TOKEN: 'n', GITHUB_TOKEN: 'g', npm_token: 'lower', PATH: '/bin' };
    expect(sandboxEnv(env, ['NPM_TOKEN'])).toEqual({ NPM_TOKEN: 'n', PATH: '/bin' });
  });

  it('is what every sandboxed spawn starts with, with or without env_pass', () => {
    const env = { JARVIS_MODEL_API_KEY: 'k', NPM_TOKEN: 'n', PATH: '/bin' };
    expect(sandboxSpawnEnv({ file: 'bwrap', args: [] }, env)).toEqual({ PATH: '/bin' });
    expect(sandboxSpawnEnv({ file: 'bwrap', args: [], envPass: ['NPM_TOKEN'] }, env)).toEqual({
      NPM_TOKEN: 'n',
      PATH: '/bin',
    });
  });
});

describe('[sandbox] env_pass and shell_mode in config.toml', () => {
  const parse = (text: string) => parseConfigText(text, '/cfg/config.toml');
  const error = configTextError;

  it('defaults to no names passed and sandboxed shell mode', () => {
    const { config } = parse('');
    expect(config.sandbox.env_pass).toEqual([]);
    expect(config.sandbox.shell_mode).toBe('sandboxed');
  });

  it('reads names and the shell mode', () => {
    const { config } = parse('[sandbox]\nenv_pass = ["NPM_TOKEN", "_X1"]\nshell_mode = "unsandboxed"\n');
    expect(config.sandbox.env_pass).toEqual(['NPM_TOKEN', '_X1']);
    expect(config.sandbox.shell_mode).toBe('unsandboxed');
  });

  it.each([
    ['env_pass = "NPM_TOKEN"', 'sandbox.env_pass'],
    ['env_pass = ["NPM TOKEN"]', 'sandbox.env_pass'],
    ['env_pass = ["1ABC"]', 'sandbox.env_pass'],
    ['env_pass = [""]', 'sandbox.env_pass'],
    ['env_pass = [3]', 'sandbox.env_pass'],
  ])('refuses %s naming the key and what is expected', (line, key) => {
    const e = error(`[sandbox]\n${line}\n`);
    expect(e.message).toContain(key);
    expect(e.message).toContain('environment variable names');
  });

  it('refuses an unknown shell mode, naming the key and the choices', () => {
    const e = error('[sandbox]\nshell_mode = "off"\n');
    expect(e.message).toContain('sandbox.shell_mode');
    expect(e.message).toContain('"sandboxed", "unsandboxed"');
  });
});
