// A command that failed at the sandbox's Unix-socket boundary (docs/sandbox.md#unix-sockets-and-seccomp) is explained:
// the outputs below are what the programs print inside the sandbox when the seccomp filter refuses their socket.
// Where commands may make their own sockets, or the command succeeded, nothing is added.
import { describe, expect, it } from 'vitest';
import { explainSandboxFailure, type BoundaryContext } from '../../../src/tools/boundary/sandboxFailure';

const REFUSED: BoundaryContext = { writable: ['/ws'], networkOff: true, unixSocketsRefused: true };

const OUTPUTS: Array<[string, string]> = [
  ['ssh-add', 'Error connecting to agent: Operation not permitted\n'],
  ['socat', '2026/12/07 05:04:11 socat[5] E socket(1, 1, 0): Operation not permitted\n'],
  ['node', "node:events:497\n      throw er;\nError: connect EPERM /run/user/0/bus\n  code: 'EPERM',\n"],
  ['tmux', 'error connecting to /tmp/tmux-0/default (Operation not permitted)\n'],
  [
    'python',
    'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n' +
      '  File "/usr/lib/python3.11/socket.py", line 232, in __init__\n' +
      '    _socket.socket.__init__(self, family, type, proto, fileno)\nPermissionError: [Errno 1] Operation not permitted\n',
  ],
];

describe('explaining a refused Unix socket', () => {
  it.each(OUTPUTS)('%s: names the boundary and the keys', (_name, output) => {
    const said = explainSandboxFailure(output, 1, REFUSED) ?? '';
    expect(said).toContain("the sandbox's Unix-socket boundary");
    expect(said).toContain('[sandbox] unix_sockets = "own"');
    expect(said).toContain('[sandbox] allow_unix_sockets');
    expect(said).toContain('dangerously_unsandboxed');
  });

  it("speaks to the user for the TUI's ! commands", () => {
    const said = explainSandboxFailure(OUTPUTS[0][1], 1, REFUSED, 'user') ?? '';
    expect(said).toContain('set [sandbox] unix_sockets = "own"');
    expect(said).toContain('shell_mode = "unsandboxed"');
  });

  it('adds nothing where commands may make their own sockets, on success, or for an unrelated failure', () => {
    expect(explainSandboxFailure(OUTPUTS[0][1], 1, { ...REFUSED, unixSocketsRefused: false })).toBeUndefined();
    expect(explainSandboxFailure(OUTPUTS[0][1], 0, REFUSED)).toBeUndefined();
    expect(explainSandboxFailure('make: *** [all] Error 2\n', 2, REFUSED)).toBeUndefined();
    expect(
      explainSandboxFailure('PermissionError: [Errno 1] Operation not permitted: "x"\n', 1, REFUSED),
    ).toBeUndefined();
  });
});
