// Permission rules naming a tool that does not exist (docs/approvals.md "Rules from other tools"): one warning per
// rule with the file, the line, the rule and the nearest known name; such a rule matches nothing, so a misspelt
// allow rule widens nothing; a pattern that does not parse is an error, never a rule.
import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../src/engine/policy/approvals';
import { patternMatches } from '../../src/engine/policy/permissionRules';
import { parseConfigText } from '../../src/store/config';
import { unknownRuleToolWarnings } from '../../src/store/ruleToolNames';

const FILE = '/cfg/config.toml';
const rules = (...entries: Array<[string, string]>) =>
  entries
    .map(([decision, pattern]) => `[[permission.rules]]\ndecision = "${decision}"\npattern = '${pattern}'\n`)
    .join('\n');

describe('unknown tool names in [[permission.rules]]', () => {
  it('warns once per unknown rule, naming the file and line, the rule and the nearest known name', () => {
    const text = rules(
      ['allow', 'Bsh(ls)'],
      ['deny', 'Frobnicate'],
      ['allow', 'WebFetch(domain:example.com)'],
      ['ask', 'Raed(/etc/**)'],
      ['allow', 'mcp__github__*'],
      ['allow', 'bash(npm test:*)'],
      ['deny', 'MultiEdit'],
      ['allow', 'WebFech'],
      ['ask', 'BraveWebSearch'],
      ['allow', 'Tas'],
      // Not a tool but the computer use authorization (docs/approvals.md, "Computer use"): known, no warning.
      ['allow', 'ComputerUse(:0)'],
      ['deny', 'computeruse(:1)'],
    );
    const { warnings } = parseConfigText(text, FILE);
    expect(warnings).toEqual([
      '/cfg/config.toml:1: permission rule allow "Bsh(ls)" names no tool called "Bsh" (nearest known name: Bash); ' +
        'the rule matches nothing until it is fixed',
      '/cfg/config.toml:5: permission rule deny "Frobnicate" names no tool called "Frobnicate" ' +
        '(no known tool name is close); the rule matches nothing until it is fixed',
      '/cfg/config.toml:13: permission rule ask "Raed(/etc/**)" names no tool called "Raed" ' +
        '(nearest known name: Read); the rule matches nothing until it is fixed',
      '/cfg/config.toml:29: permission rule allow "WebFech" names no tool called "WebFech" ' +
        '(nearest known name: WebFetch (FetchURL)); the rule matches nothing until it is fixed',
      expect.stringMatching(/^\/cfg\/config\.toml:37: permission rule allow "Tas" names no tool called "Tas"/),
    ]);
  });

  it('a rule written another way (an inline array) is named by file', () => {
    const text = '[permission]\nrules = [{ decision = "allow", pattern = "Bsh(ls)" }]\n';
    expect(parseConfigText(text, FILE).warnings).toEqual([
      expect.stringMatching(/^\/cfg\/config\.toml: permission rule allow "Bsh\(ls\)" names no tool called "Bsh"/),
    ]);
  });

  it('fails closed: an unknown name matches no call; a pattern that does not parse is a config error', () => {
    expect(patternMatches('Bsh(ls)', 'Bash(ls)', '/w')).toBe(false);
    expect(patternMatches('Frobnicate', 'Bash(rm -rf /)', '/w')).toBe(false);
    const decision = decideApproval({
      toolName: 'Bash',
      subject: 'Bash(curl https://example.com)',
      accesses: [{ kind: 'exec', cwd: '/w' }],
      defaultApproval: 'ask',
      mode: 'manual',
      rules: [{ decision: 'allow', pattern: 'Bsh(curl *)', scope: 'user' }],
      sessionApprovals: [],
      cwd: '/w',
      workspace: { roots: ['/w'], readOnly: [] },
      isSensitivePath: () => false,
    });
    expect(decision).toMatchObject({ decision: 'ask', by: 'tool default' });
    expect(patternMatches('WebFetch(domain:example.com)', 'FetchURL(https://example.com/a)', '/w')).toBe(true);
    expect(() => parseConfigText(rules(['allow', 'Bash(ls']), FILE)).toThrow(/permission\.rules.*pattern/s);
    expect(() => parseConfigText(rules(['allow', 'Bash ls']), FILE)).toThrow(/permission\.rules.*pattern/s);
  });

  it('known names, aliases, MCP names and patterns give no warning', () => {
    const known = ['Read', 'read', 'WebFetch', 'TodoWrite', 'mcp__x__y', 'Brave*', '*', 'Agent', 'Task(explore)'];
    expect(
      unknownRuleToolWarnings(
        known.map((pattern) => ({ decision: 'allow', pattern })),
        [],
      ),
    ).toEqual([]);
  });
});

describe('near-miss tool names never widen a rule', () => {
  const call = (subject: string, pattern: string) => patternMatches(pattern, subject, '/w');

  it.each(['bash(ls)', 'BASH(ls)', 'bAsH(ls)'])('%j is Bash(ls) (names are read without case), no wider', (p) => {
    expect(parseConfigText(rules(['allow', p]), FILE).warnings).toEqual([]);
    expect(call('Bash(ls)', p)).toBe(true);
    expect(call('Bash(ls -la)', p)).toBe(false);
    expect(call('Bash(LS)', p)).toBe(false);
    expect(call('Read(/w/ls)', p)).toBe(false);
  });

  const LOOKALIKES = [
    ['Bаsh(ls)', 'Cyrillic а'],
    ['Ｂａｓｈ(ls)', 'full-width letters'],
    ['Ba\u200bsh(ls)', 'a zero-width space'],
    ['Bash\u00ad(ls)', 'a soft hyphen'],
    ['Bash\u200d(ls)', 'a zero-width joiner'],
    ['Reаd(/w/**)', 'Cyrillic а in Read'],
  ];
  it.each(LOOKALIKES)('%j (%s) is a config error and, as a pattern, matches nothing', (p) => {
    expect(() => parseConfigText(rules(['allow', p]), FILE)).toThrow(
      /permission\.rules\[0\]\.pattern: expected a tool/,
    );
    expect(unknownRuleToolWarnings([{ decision: 'allow', pattern: p }], ['x:1'])).toEqual([
      expect.stringMatching(
        /^x:1: permission rule allow .* names no tool called "[^"]+" \(it has U\+[0-9A-F]{4}, not ASCII\)/,
      ),
    ]);
    expect(call('Bash(ls)', p)).toBe(false);
    expect(call('Read(/w/a)', p)).toBe(false);
  });

  it.each(['Bash (ls)', 'Bash\u00a0(ls)', 'Bash\t(ls)', 'Bash(ls) ', 'Bash(ls)x', '(ls)'])(
    '%j does not parse: a config error, never a rule',
    (p) => {
      expect(() => parseConfigText(rules(['allow', p]), FILE)).toThrow(/permission\.rules.*pattern/s);
    },
  );
});
