// What the Action's script is given and how it answers (docs/ci.md "The GitHub Action"): its inputs (INPUT_* set by
// action.yml), the event that started the workflow, the outputs file, log masking, and the jarvis runs it starts.
// Secrets are masked (`::add-mask::`) before anything else is printed, and reach jarvis only in its environment.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitHubApi } from './githubApi';

export class ActionError extends Error {}

export interface ActionContext {
  input(name: string): string;
  flag(name: string): boolean;
  event: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- GitHub's webhook payload
  eventName: string;
  repo: { owner: string; name: string };
  workspace: string;
  /** jarvis's own home folder for this job (JARVIS_CODE_HOME): sessions, and the config.toml the Action writes. */
  home: string;
  api: GitHubApi;
  log(text: string): void;
  setOutput(name: string, value: string): void;
  /** Runs this jarvis with `args` in the workspace; stdout is returned, stderr goes to the log. */
  jarvis(args: string[]): Promise<{ code: number; stdout: string }>;
}

const SECRET_INPUTS = ['api_key', 'github_token'];

function env(name: string, source: NodeJS.ProcessEnv): string {
  const value = source[name];
  if (value === undefined || value === '')
    throw new ActionError(`${name} is not set: run this inside a GitHub Actions job.`);
  return value;
}

export function openActionContext(source: NodeJS.ProcessEnv, out: (text: string) => void): ActionContext {
  const input = (name: string) => (source[`INPUT_${name.toUpperCase()}`] ?? '').trim();
  // First of all: the runner hides these values wherever they would appear in the log.
  for (const name of SECRET_INPUTS) if (input(name)) out(`::add-mask::${input(name)}\n`);
  const flag = (name: string) => {
    const v = input(name).toLowerCase();
    if (v === '' || v === 'false') return false;
    if (v === 'true') return true;
    throw new ActionError(`input ${name} must be true or false, got "${input(name)}".`);
  };
  const [owner, name] = env('GITHUB_REPOSITORY', source).split('/');
  const token = input('github_token');
  if (!token) throw new ActionError('input github_token is empty: give it ${{ github.token }} (the default).');
  const workspace = source.GITHUB_WORKSPACE || process.cwd();
  const outputFile = source.GITHUB_OUTPUT;
  const home = join(source.RUNNER_TEMP || workspace, 'jarvis-home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return {
    input,
    flag,
    event: JSON.parse(readFileSync(env('GITHUB_EVENT_PATH', source), 'utf8')) as Record<string, never>,
    eventName: env('GITHUB_EVENT_NAME', source),
    repo: { owner, name },
    workspace,
    home,
    api: new GitHubApi(source.GITHUB_API_URL || 'https://api.github.com', token),
    log: (text) => out(`${text}\n`),
    setOutput: (key, value) => {
      if (!outputFile) return;
      // The multi-line form, with a delimiter the value cannot hold.
      const delimiter = `jarvis_${randomBytes(12).toString('hex')}`;
      appendFileSync(outputFile, `${key}<<${delimiter}\n${value}\n${delimiter}\n`);
    },
    jarvis: (args) => runJarvis(args, workspace, childEnv(source, input, home)),
  };
}

/** jarvis's environment: the runner's, the model settings from the inputs, and a home folder of its own. */
function childEnv(source: NodeJS.ProcessEnv, input: (name: string) => string, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...source, JARVIS_CODE_HOME: home };
  const map: Array<[string, string]> = [
    ['model', 'JARVIS_MODEL_NAME'],
    ['api_key', 'JARVIS_MODEL_API_KEY'],
    ['provider_type', 'JARVIS_MODEL_PROVIDER_TYPE'],
    ['base_url', 'JARVIS_MODEL_BASE_URL'],
  ];
  for (const [name, variable] of map) if (input(name)) env[variable] = input(name);
  // The inputs themselves (the key among them) are not passed on in their INPUT_ form.
  for (const key of Object.keys(env)) if (key.startsWith('INPUT_')) delete env[key];
  return env;
}

/** The `[tools] enabled` list of the Action's own config.toml (docs/configuration.md), from allowed_tools. */
export function writeToolConfig(home: string, tools: string[]): void {
  for (const t of tools)
    if (!/^[A-Za-z][\w.*-]*$/.test(t)) throw new ActionError(`allowed_tools: "${t}" is not a tool name.`);
  const list = tools.map((t) => JSON.stringify(t)).join(', ');
  writeFileSync(join(home, 'config.toml'), `[tools]\nenabled = [${list}]\n`, { mode: 0o600 });
}

function runJarvis(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    // The same jarvis that runs this script: its entry file is argv[1].
    const child = spawn(process.execPath, [process.argv[1], ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout }));
  });
}

/** Comma- or newline-separated list input. */
export function listInput(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The cap flags jarvis takes (docs/print-mode.md "Caps"), from the inputs. */
export function capFlags(ctx: ActionContext): string[] {
  const flags: string[] = [];
  for (const [name, flag] of [
    ['max_turns', '--max-turns'],
    ['max_budget_usd', '--max-budget-usd'],
    ['timeout', '--timeout'],
  ])
    if (ctx.input(name)) flags.push(flag, ctx.input(name));
  return flags;
}
