import { describe, expect, it } from 'vitest';
import { permissionsLines } from '../../src/ui/permissionsView';

describe('/permissions', () => {
  it('lists deny, then ask, then allow rules with where each was written, and the session approvals', () => {
    const lines = permissionsLines({
      modeLabel: 'Manual',
      rules: [
        { decision: 'allow', pattern: 'Bash(git *)', source: '~/c.toml:1' },
        { decision: 'deny', pattern: 'Bash(rm *)', source: '~/c.toml:5', reason: 'use trash' },
        { decision: 'ask', pattern: 'WebSearch', source: '~/c.toml:9' },
      ],
      sessionApprovals: ['Bash(npm test*)'],
      configPath: '/h/config.toml',
    });
    expect(lines.slice(0, 8)).toEqual([
      'Mode: Manual',
      '',
      'Rules in force (deny, then ask, then allow; in file order within each):',
      '  deny   Bash(rm *)   ~/c.toml:5',
      '         use trash',
      '  ask    WebSearch    ~/c.toml:9',
      '  allow  Bash(git *)  ~/c.toml:1',
      'Rules are read when Jarvis starts: restart it after editing the file.',
    ]);
    expect(lines).toContain('Approved for this session:');
    expect(lines).toContain('  Bash(npm test*)');
  });

  it('says where to add rules when there are none', () => {
    const lines = permissionsLines({
      modeLabel: 'YOLO',
      rules: [],
      sessionApprovals: [],
      configPath: '/h/config.toml',
    });
    expect(lines[2]).toBe('No permission rules. Add [[permission.rules]] to /h/config.toml.');
    expect(lines).toContain('Nothing approved for this session.');
  });
});
