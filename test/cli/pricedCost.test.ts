// docs/print-mode.md "Cost": where the provider reports tokens only (OpenAI, Anthropic direct), the result's cost is
// priced — from `[models.<alias>] price` in config.toml, else from the bundled price dataset — and marked
// `cost_source: "priced"`; a run with reported and priced requests is `mixed`. The direct APIs are reached through a
// loopback forward proxy that sends every request to the scripted model, so the base URLs name the real hosts and
// nothing leaves 127.0.0.1.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultOf } from '../helpers/resultSchema';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { useProxiedMockServer } from '../helpers/forwardProxy';

const fixture = useProxiedMockServer();
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy', 'http_proxy'];

async function run(dirs: CliDirs, extra: Record<string, string>) {
  const env = cliEnv(dirs, { HTTP_PROXY: fixture.proxy().url, ...extra });
  for (const name of PROXY_VARS) delete env[name];
  const r = await runJarvis(['-p', 'hello', '--output-format', 'json'], { env, cwd: dirs.cwd });
  expect(r.code, r.stderr).toBe(0);
  return resultOf(r.stdout);
}

describe('priced cost', () => {
  it('OpenAI direct (gpt-4o, $2.50 in / $10 out per million): priced from the dataset', async () => {
    const dirs = makeCliDirs();
    fixture.server().push({ text: 'hi', usage: { input: 1000, output: 100 } });
    const result = await run(dirs, { ...mockModelEnv('http://api.openai.com/v1'), JARVIS_MODEL_NAME: 'gpt-4o' });
    expect(fixture.proxy().requests.map((q) => q.url)).toEqual(['http://api.openai.com/v1/chat/completions']);
    expect(result).toMatchObject({ total_cost_usd: 0.0035, cost_source: 'priced', cost_complete: true });
  });

  it('Anthropic direct (claude-sonnet-4-5, $3 in / $15 out per million): priced from the dataset', async () => {
    const dirs = makeCliDirs();
    fixture.server().push({ text: 'hi', usage: { input: 1000, output: 100 } });
    const result = await run(dirs, {
      ...mockModelEnv('http://api.anthropic.com', 'anthropic'),
      JARVIS_MODEL_NAME: 'claude-sonnet-4-5',
    });
    expect(fixture.proxy().requests.map((q) => q.url)).toEqual(['http://api.anthropic.com/v1/messages']);
    expect(result).toMatchObject({ total_cost_usd: 0.0045, cost_source: 'priced', cost_complete: true });
  });

  it('a configured price wins over the dataset', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      [
        'default_model = "gpt"',
        '[providers.openai]\ntype = "openai"\nbase_url = "http://api.openai.com/v1"\napi_key = "k"',
        '[models.gpt]\nprovider = "openai"\nmodel = "gpt-4o"\nmax_context_size = 128000',
        // The way a negotiated rate is written: its own table, cached input cheaper.
        '[models.gpt.price]\ninput = 1.0\noutput = 2\ncache_read = 0.1',
      ].join('\n\n'),
    );
    fixture.server().push({ text: 'hi', usage: { input: 1000, output: 100 } });
    const result = await run(dirs, {});
    expect(result).toMatchObject({ total_cost_usd: 0.0012, cost_source: 'priced', cost_complete: true });
  });

  it('a reported cost is kept as reported; with priced requests beside it the source is mixed', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      [
        'default_model = "m"',
        `[providers.gw]\ntype = "openai"\nbase_url = "${fixture.server().baseUrlFor('openai')}"\napi_key = "k"`,
        '[models.m]\nprovider = "gw"\nmodel = "gw-model"\nmax_context_size = 100000\nprice = { input = 10, output = 10 }',
      ].join('\n\n'),
    );
    writeFileSync(join(dirs.cwd, 'a.txt'), 'a\n');
    fixture
      .server()
      .push(
        { toolCalls: [{ name: 'Read', arguments: { path: 'a.txt' } }], usage: { input: 1000, output: 0, cost: 0.5 } },
        { text: 'done', usage: { input: 1000, output: 0 } },
      );
    const result = await run(dirs, {});
    expect(result).toMatchObject({ total_cost_usd: 0.51, cost_source: 'mixed', cost_complete: true });
  });

  it('a model on a local or unknown host is not priced from the dataset', async () => {
    const dirs = makeCliDirs();
    fixture.server().push({ text: 'hi', usage: { input: 1000, output: 100 } });
    const result = await run(dirs, {
      ...mockModelEnv(fixture.server().baseUrlFor('openai')),
      JARVIS_MODEL_NAME: 'gpt-4o',
    });
    expect(result).toMatchObject({ total_cost_usd: null, cost_source: null, cost_complete: false });
  });
});
