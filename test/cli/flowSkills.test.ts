// Kimi Code's flow skills (test/fixtures/peers/project/.kimi/skills: `release` with a Mermaid flowchart — a comment, a
// decision with `-->|Yes|` / `-->|No|` edges and a loop back — and `triage` with a D2 chart, a `|md` block label and
// quoted labels) run with `/flow:<name>` through `jarvis -p` against the scripted model: one turn per node, decisions
// answered with <choice>…</choice> (asked again, a bounded number of times, when the answer has none), the loop
// followed until END; `/skill:<name>` still sends the skill's text; arguments and unknown flows are usage errors.
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { lastUserText } from '../helpers/modelRequests';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { FLOW_CHOICE_ATTEMPTS } from '../../src/engine/delegation/flowRunner';

let model: MockModelServer;
let dirs: CliDirs;
beforeAll(async () => {
  model = await startMockModelServer();
  dirs = makeCliDirs();
  cpSync(resolve(__dirname, '../fixtures/peers/project/.kimi'), join(dirs.cwd, '.kimi'), { recursive: true });
});
afterAll(async () => {
  await model.close();
});

const run = (prompt: string) =>
  runJarvis(['-p', prompt], {
    env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 60_000,
  });

/** The last user message of each request made since `from`. */
function prompts(from: number): string[] {
  return model.requests.slice(from).map(lastUserText);
}

describe('flow skills through jarvis -p', () => {
  it('/flow:release walks the Mermaid chart: a missing choice is asked again, the loop is followed, END ends it', async () => {
    const from = model.requests.length;
    model.push(
      { text: 'Changed: src/app.ts' },
      { text: 'I think they might be.' },
      { text: 'They fail. <choice>No</choice>' },
      { text: 'Fixed the login test.' },
      { text: '<choice>Yes</choice>' },
      { text: 'Release notes written.' },
    );
    const r = await run('/flow:release');
    expect(r.code, r.stderr).toBe(0);
    const sent = prompts(from);
    expect(sent).toHaveLength(6);
    expect(sent[0]).toContain('List the files changed since the last tag');
    expect(sent[1]).toContain(
      'Are the tests green?\n\nAvailable branches:\n- Yes\n- No\n\nReply with a choice using <choice>...</choice>.',
    );
    expect(sent[2]).toContain('Your last answer had no valid choice.');
    expect(sent[3]).toContain('Fix the failing tests');
    expect(sent[4]).toContain('Are the tests green?');
    expect(sent[5]).toContain('Write the release notes');
    expect(r.stderr).toContain('The flow /flow:release reached END.');
  }, 90_000);

  it('/flow:triage walks the D2 chart with its |md block and quoted branch labels', async () => {
    const from = model.requests.length;
    model.push({ text: 'A crash on login.' }, { text: '<choice>yes</choice>' }, { text: 'Labelled.' });
    const r = await run('/flow:triage');
    expect(r.code, r.stderr).toBe(0);
    const sent = prompts(from);
    expect(sent[0]).toContain('# Read the issue\nRead the newest issue and summarise it in two lines.');
    expect(sent[1]).toContain('Is it a bug?\n\nAvailable branches:\n- yes\n- no');
    expect(sent[2]).toContain('Label it as a bug.');
  }, 90_000);

  it(`a decision without a valid choice after ${FLOW_CHOICE_ATTEMPTS} answers stops the flow and says so (exit 1)`, async () => {
    model.push(
      { text: 'read' },
      ...Array.from({ length: FLOW_CHOICE_ATTEMPTS }, () => ({ text: '<choice>maybe</choice>' })),
    );
    const r = await run('/flow:triage');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`stopped at "decide": ${FLOW_CHOICE_ATTEMPTS} answers gave no branch of yes, no`);
  }, 90_000);

  it('/skill:release sends the text; /flow:release with words, /flow:changelog and /flow:nope are usage errors', async () => {
    model.push({ text: 'ok' });
    const skill = await run('/skill:release');
    expect(skill.code, skill.stderr).toBe(0);
    expect(prompts(model.requests.length - 1)[0]).toContain('```mermaid');
    const args = await run('/flow:release now');
    expect(args.code).toBe(2);
    expect(args.stderr).toContain('/flow:release takes no arguments');
    const notFlow = await run('/flow:changelog');
    expect(notFlow.stderr).toContain('The skill "changelog" is no flow skill');
    expect((await run('/flow:nope')).stderr).toContain('There is no flow skill "nope".');
  }, 90_000);
});
