import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDoctorReport, runDoctor } from '../../src/store/doctor';

const FIXTURES = join(__dirname, '../fixtures/config');

function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'jarvis-doctor-'));
}

const ENV_MODEL = {
  JARVIS_MODEL_NAME: 'm1',
  JARVIS_MODEL_API_KEY: 'k',
  JARVIS_MODEL_PROVIDER_TYPE: 'openai',
  JARVIS_MODEL_BASE_URL: 'http://127.0.0.1:9/v1',
};

describe('runDoctor: the model', () => {
  it('fails (exit 1) when no model resolves, with the resolution message', () => {
    const report = runDoctor({ home: tempHome(), env: {} });
    expect(report.ok).toBe(false);
    expect(report.model?.ok).toBe(false);
    expect(report.model?.message).toMatch(/JARVIS_MODEL_NAME|default_model|\[models/);
    expect(formatDoctorReport(report)).toContain('model: not resolved');
  });

  it('fails on a provider type that cannot be used, naming it', () => {
    const report = runDoctor({ home: tempHome(), env: { ...ENV_MODEL, JARVIS_MODEL_PROVIDER_TYPE: 'bogus' } });
    expect(report.ok).toBe(false);
    expect(report.model?.message).toContain('JARVIS_MODEL_PROVIDER_TYPE');
  });

  it('fails when the provider in config.toml has no key', () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.toml'),
      'default_model = "m"\n[providers.p]\ntype = "openai"\n[models.m]\nprovider = "p"\nmodel = "x"\nmax_context_size = 1000\n',
    );
    const report = runDoctor({ home, env: {} });
    expect(report.ok).toBe(false);
    expect(report.model?.message).toContain('no API key');
  });

  it('says which model, provider, URL and key source it resolved', () => {
    const report = runDoctor({ home: tempHome(), env: ENV_MODEL });
    expect(report.model).toEqual({
      ok: true,
      message:
        'the model of the JARVIS_MODEL_* variables resolves: m1 (openai) at http://127.0.0.1:9/v1, ' +
        'API key from the JARVIS_MODEL_API_KEY environment variable',
    });
  });
});

describe('runDoctor', () => {
  it('missing default files are skipped, ok, and not created', () => {
    const home = tempHome();
    const report = runDoctor({ home, env: ENV_MODEL });
    expect(report.ok).toBe(true);
    expect(report.files.map((f) => [f.target, f.status])).toEqual([
      ['config', 'skipped'],
      ['tui', 'skipped'],
    ]);
    expect(existsSync(join(home, 'config.toml'))).toBe(false);
    expect(existsSync(join(home, 'tui.toml'))).toBe(false);
  });

  it('valid files are valid; warnings are carried', () => {
    const home = tempHome();
    copyFileSync(join(FIXTURES, 'valid-full.toml'), join(home, 'config.toml'));
    writeFileSync(join(home, 'tui.toml'), '[status_line]\nitems = ["weather"]\n');
    const report = runDoctor({ home, env: {} });
    expect(report.ok).toBe(true);
    expect(report.files.map((f) => f.status)).toEqual(['valid', 'valid']);
    expect(report.files[1].warnings[0]).toContain('unknown item "weather" skipped');
  });

  it('an invalid file fails with its message and is left untouched', () => {
    const home = tempHome();
    const path = join(home, 'config.toml');
    copyFileSync(join(FIXTURES, 'invalid/hook-fifth-key.toml'), path);
    const before = statSync(path);
    const report = runDoctor({ home, target: 'config' });
    expect(report.ok).toBe(false);
    expect(report.files).toHaveLength(1);
    expect(report.files[0].status).toBe('invalid');
    expect(report.files[0].message).toContain('hooks[0].async: unknown key');
    expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
    expect(readFileSync(path, 'utf8')).toBe(readFileSync(join(FIXTURES, 'invalid/hook-fifth-key.toml'), 'utf8'));
  });

  it('checks only the requested target', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), 'telemetry = 1');
    const report = runDoctor({ home, target: 'tui' });
    expect(report).toEqual({
      ok: true,
      files: [
        {
          target: 'tui',
          path: join(home, 'tui.toml'),
          status: 'skipped',
          message: expect.stringContaining('does not exist'),
          warnings: [],
        },
      ],
    });
  });

  it('an explicit path must exist', () => {
    const home = tempHome();
    const report = runDoctor({ home, target: 'config', path: join(home, 'nope.toml') });
    expect(report.ok).toBe(false);
    expect(report.files[0].status).toBe('missing');
    expect(report.files[0].message).toContain('nope.toml: no such file');
  });

  it.each([
    [undefined, 'tui-valid.toml', 'config', 'invalid'], // checked as config.toml: unknown keys
    ['tui' as const, 'tui-valid.toml', 'tui', 'valid'],
    ['tui' as const, 'invalid/tui-bad-condition.toml', 'tui', 'invalid'],
    [undefined, 'valid-full.toml', 'config', 'valid'],
  ])('explicit path: target %s, %s → %s %s', (target, file, kind, status) => {
    const report = runDoctor({ home: tempHome(), target, path: join(FIXTURES, file) });
    expect(report.files).toHaveLength(1);
    expect(report.files[0].target).toBe(kind);
    expect(report.files[0].status).toBe(status);
    expect(report.ok).toBe(status === 'valid');
  });

  it('infers the tui target from an explicit file named tui.toml', () => {
    const home = tempHome();
    writeFileSync(join(home, 'tui.toml'), 'theme = "dark"');
    expect(runDoctor({ home, path: join(home, 'tui.toml') }).files[0]).toMatchObject({
      target: 'tui',
      status: 'valid',
    });
  });
});

describe('formatDoctorReport', () => {
  it('prints one block per file and a verdict', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), 'default_permission_mode = "always"');
    const text = formatDoctorReport(runDoctor({ home }));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^config\.toml \(.*config\.toml\): invalid$/);
    expect(lines[1]).toContain('default_permission_mode: expected one of "manual", "yolo", "auto", got "always"');
    expect(lines[2]).toMatch(/^tui\.toml \(.*tui\.toml\): skipped$/);
    expect(lines.at(-1)).toBe('Some checks need attention.');
    expect(formatDoctorReport({ ok: true, files: [] })).toBe('All checks passed.');
  });
});
