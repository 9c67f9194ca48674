// The trust boundary's attack corpus run as root (docs/trust-boundary.md): every row first proved to work in plain
// bash, then refused through the boundary, with the files outside the workspace untouched.
import { describe, expect, it } from 'vitest';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { ATTACKS } from './attackCorpus';
import { LEGITIMATE } from './legitimateCommands';
import { runLegitimate, runPlain, runThroughBoundary } from './attackRunner';

const available = sandboxAvailable();

describe.skipIf(!available)('the trust boundary against the attack corpus', () => {
  it.each(ATTACKS.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const plain = await runPlain(c);
      expect(plain.got, `the attack must work without the boundary:\n${plain.output}`).toBeDefined();
      const boxed = await runThroughBoundary(c);
      expect(boxed.got, `${boxed.output}\n${boxed.said.join('\n')}`).toBeUndefined();
      expect(boxed.canaries).toEqual([]);
      // Each row makes two fixtures (one has 21 000 files) and runs bwrap: more than the default on a loaded machine.
    },
    120_000,
  );
});

describe.skipIf(!available)('the same kinds of commands, legitimately, through the trust boundary', () => {
  it.each(LEGITIMATE.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await runLegitimate(c);
    expect(r.problem, r.output).toBeUndefined();
  });
});
