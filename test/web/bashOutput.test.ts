// The web UI's Bash card reads the tool's result text (web/src/components/bashOutput.ts, docs/web.md "Tool cards"):
// the texts below are written as src/tools/shell/bashTool.ts writes them.
import { describe, expect, it } from 'vitest';
import { parseBashOutput } from '../../web/src/components/bashOutput';

describe('the web UI reads a Bash result', () => {
  it('a command that printed: its output, no exit code shown', () => {
    expect(parseBashOutput('Exit code: 0\n<stdout>\nweb-ui-check\n</stdout>\n<stderr></stderr>')).toEqual({
      stdout: 'web-ui-check',
      stderr: '',
      note: '',
    });
  });

  it('a failed command: output and error output apart, and the exit code', () => {
    const text = 'Exit code: 2\n<stdout>\nbuilding\n</stdout>\n<stderr>\nsrc/a.ts(3,1): error TS1005\n</stderr>';
    expect(parseBashOutput(text)).toEqual({
      stdout: 'building',
      stderr: 'src/a.ts(3,1): error TS1005',
      exit: '2',
      note: '',
    });
  });

  it('what the tool said first (a time-out) stays, and a killed command names its signal', () => {
    const text =
      'The command timed out after 120 s and was stopped.\nExit code: none (terminated by SIGTERM)\n(no output)';
    expect(parseBashOutput(text)).toEqual({
      stdout: '',
      stderr: '',
      exit: 'none (terminated by SIGTERM)',
      note: 'The command timed out after 120 s and was stopped.',
    });
  });

  it('a long output previewed in <output …> shows the preview', () => {
    const text =
      'Exit code: 0\n<output stdout and stderr interleaved, 90000 characters>\nfirst\n[… 80000 characters not shown.]\nlast\n</output>';
    expect(parseBashOutput(text)?.stdout).toBe('first\n[… 80000 characters not shown.]\nlast');
  });

  it('text of another shape is left as it is', () => {
    expect(parseBashOutput('The command could not be started: spawn bash ENOENT')).toBeUndefined();
    expect(parseBashOutput('The user rejected this call and said: no')).toBeUndefined();
  });
});
