// docs/ci.md "The GitHub Action": action.yml and the example workflows (test/fixtures/workflows/, shown verbatim in
// docs/ci.md) are what a runner accepts — validated against SchemaStore's published github-action.json and
// github-workflow.json (vendored in test/fixtures/published-schemas/) — and agree with each other: every `with:` key
// is an input of the action, and every input reaches the script.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { publishedValidator } from '../../helpers/publishedSchemas';

// Parsed YAML: each assertion names the fields it reads.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Yaml = any;

const ROOT = join(import.meta.dirname, '../../..');
const WORKFLOWS = ['jarvis-review.yml', 'jarvis-mention.yml'];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const workflowText = (name: string) => read(`test/fixtures/workflows/${name}`);
const action: Yaml = parse(read('action.yml'));

describe('action.yml and the example workflows', () => {
  it('action.yml validates against the published github-action.json', () => {
    const validate = publishedValidator('action');
    expect(validate(action), JSON.stringify(validate.errors)).toBe(true);
    expect(action.runs.using).toBe('composite');
    // The schema has teeth: a composite step without a shell is refused, as the runner refuses it.
    const broken = structuredClone(action);
    delete broken.runs.steps[1].shell;
    expect(validate(broken)).toBe(false);
  });

  it.each(WORKFLOWS)('%s validates against the published github-workflow.json', (name) => {
    const validate = publishedValidator('workflow');
    const workflow: Yaml = parse(workflowText(name));
    expect(validate(workflow), JSON.stringify(validate.errors)).toBe(true);
    const broken = structuredClone(workflow);
    delete Object.values<Yaml>(broken.jobs)[0]['runs-on'];
    expect(validate(broken)).toBe(false);
  });

  it.each(WORKFLOWS)('%s gives the action only inputs it declares', (name) => {
    const workflow: Yaml = parse(workflowText(name));
    const steps = Object.values<Yaml>(workflow.jobs).flatMap((job) => job.steps as Yaml[]);
    const ours = steps.filter((s) => String(s.uses ?? '').startsWith('jarvis-code/jarvis-code@'));
    expect(ours).toHaveLength(1);
    for (const key of Object.keys(ours[0].with)) expect(Object.keys(action.inputs)).toContain(key);
  });

  it("every input of action.yml reaches the install step or the script's environment, and nothing else is read", () => {
    const text = read('action.yml');
    const used = new Set([...text.matchAll(/\$\{\{ inputs\.(\w+) \}\}/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
    const run = action.runs.steps.find((s: Yaml) => s.id === 'run');
    for (const [variable, value] of Object.entries<string>(run.env))
      expect(value).toBe(`\${{ inputs.${variable.replace(/^INPUT_/, '').toLowerCase()} }}`);
  });

  it.each(WORKFLOWS)('docs/ci.md shows %s verbatim', (name) => {
    expect(read('docs/ci.md')).toContain(workflowText(name));
  });
});
