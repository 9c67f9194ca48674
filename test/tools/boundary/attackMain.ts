// The attack corpus as a program (bundled and run as an unprivileged user by boundaryAttacksUser.test.ts): every row
// in plain bash and through the boundary, every legitimate command through the boundary; one JSON line per row.
import { probeBwrap } from '../../../src/platform/sandbox/bwrapSandbox';
import { ATTACKS } from './attackCorpus';
import { LEGITIMATE } from './legitimateCommands';
import { runLegitimate, runPlain, runThroughBoundary } from './attackRunner';

const probe = probeBwrap();
if (!probe.ok) {
  throw new Error(`the command sandbox cannot run as this user: ${probe.reason}`);
} else {
  for (const c of ATTACKS) {
    try {
      const plain = await runPlain(c);
      const boxed = await runThroughBoundary(c);
      console.log(JSON.stringify({ name: c.name, plain: plain.got, boxed: boxed.got, canaries: boxed.canaries }));
    } catch (e) {
      console.log(JSON.stringify({ name: c.name, error: (e as Error).stack }));
    }
  }
  for (const c of LEGITIMATE) {
    try {
      const r = await runLegitimate(c);
      console.log(JSON.stringify({ name: c.name, legit: true, problem: r.problem, said: r.said }));
    } catch (e) {
      console.log(JSON.stringify({ name: c.name, legit: true, error: (e as Error).stack }));
    }
  }
}
