// query()'s options checked before anything runs (src/sdk/sdkOptions.ts, docs/sdk.md "Options"): each mistake a
// TypeError that names the option and says what it takes.
import { describe, expect, it } from 'vitest';
import { checkOptions } from '../../src/sdk/sdkOptions';
import { query } from '../../src/sdk/query';
import type { Options } from '../../src/sdk/api';

const check =
  (options: Record<string, unknown>, prompt: unknown = 'hi') =>
  () =>
    checkOptions(prompt as string, options as Options);

describe('query() options', () => {
  it.each([
    ['an empty prompt', {}, '  ', /prompt is empty/],
    ['a prompt of the wrong kind', {}, 42, /prompt must be a string or an async iterable/],
    ['an unknown permission mode', { permissionMode: 'sometimes' }, 'hi', /permissionMode must be one of manual/],
    ['manual without canUseTool', { permissionMode: 'manual' }, 'hi', /give options.canUseTool/],
    ['canUseTool not a function', { canUseTool: 'yes' }, 'hi', /canUseTool must be a function/],
    ['maxTurns 0', { maxTurns: 0 }, 'hi', /maxTurns must be a whole number ≥ 1, got 0/],
    ['maxBudgetUsd NaN', { maxBudgetUsd: NaN }, 'hi', /maxBudgetUsd must be a number > 0/],
    ['forkSession without resume', { forkSession: true }, 'hi', /forkSession needs options.resume/],
    ['a settings source', { settingSources: ['local'] }, 'hi', /expected "user" or "project", got local/],
    ['a provider without a model', { provider: { type: 'openai', apiKey: 'k' } }, 'hi', /needs options.model/],
    ['hooks as an array', { hooks: [] }, 'hi', /options.hooks must be an object/],
    ['an unknown hook event', { hooks: { BeforeTool: [] } }, 'hi', /options.hooks.BeforeTool: not a hook event/],
    ['hooks not a list', { hooks: { Stop: {} } }, 'hi', /options.hooks.Stop must be an array/],
    [
      'a bad matcher',
      { hooks: { PreToolUse: [{ matcher: '(', hooks: [() => 1] }] } },
      'hi',
      /\[0\].matcher is not a regular/,
    ],
    [
      'no functions',
      { hooks: { PreToolUse: [{ hooks: ['echo'] }] } },
      'hi',
      /\[0\].hooks must be a non-empty array of fun/,
    ],
    ['env as a string', { env: 'PATH=/bin' }, 'hi', /options.env must be an object of variable names to strings/],
    ['an env value not a string', { env: { PORT: 8080 } }, 'hi', /options.env.PORT must be a string, got number/],
    ['a timeout too long', { hooks: { Stop: [{ timeout: 601, hooks: [() => 1] }] } }, 'hi', /timeout must be a whole/],
  ])('refuses %s', (_what, options, prompt, message) => {
    expect(check(options, prompt)).toThrow(message);
    expect(check(options, prompt)).toThrow(TypeError);
  });

  it('refuses env with server: the server runs the session with its own environment (docs/server.md)', () => {
    const server = { url: 'http://127.0.0.1:1', token: 't' };
    expect(() => query({ prompt: 'hi', options: { server, env: { X: '1' } } })).toThrow(
      /options.env is not available with options.server/,
    );
  });

  it('takes well-formed hooks and options', () => {
    expect(
      check({
        permissionMode: 'plan',
        maxTurns: 3,
        hooks: { PreToolUse: [{ matcher: '^Bash$', timeout: 5, hooks: [() => undefined] }] },
      }),
    ).not.toThrow();
  });
});
