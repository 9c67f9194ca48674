// engines.node ranges as packages write them (docs/lsp.md "When a server cannot run"): understood forms decide,
// anything else is unknown and never refuses a server.
import { describe, expect, it } from 'vitest';
import { satisfiesRange } from '../../../src/platform/lsp/nodeRange';

describe('satisfiesRange', () => {
  it.each([
    ['20.20.2', '>=22.22.2', false],
    ['22.22.2', '>=22.22.2', true],
    ['24.1.0', '>=22.22.2', true],
    ['20.20.2', '>=20', true],
    ['20.19.0', '>=20.19', true],
    ['20.18.9', '>=20.19', false],
    ['20.20.2', '^20.19.0 || >=22.12.0', true],
    ['21.0.0', '^20.19.0 || >=22.12.0', false],
    ['22.12.0', '^20.19.0 || >=22.12.0', true],
    ['18.20.0', '>=18 <21', true],
    ['21.1.0', '>=18 <21', false],
    ['20.5.0', '20.x', true],
    ['21.5.0', '20.x', false],
    ['20.5.0', '~20.4', false],
    ['20.4.9', '~20.4', true],
    ['20.0.0', '>20', false],
    ['21.0.0', '>20', true],
    ['20.9.0', '<=20', true],
    ['20.20.2', '*', true],
    ['20.20.2', '>= 22', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
  ])('%s against %s: %s', (version, range, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });

  it.each([
    ['20.20.2', '18 - 22'],
    ['20.20.2', 'node >= 20'],
    ['20.20.2', 'latest'],
    ['20', '>=18'],
  ])('%s against %s is unknown', (version, range) => {
    expect(satisfiesRange(version, range)).toBeUndefined();
  });
});
