// The program's functions as hooks: a PreToolUse hook blocks a Bash command (the model reads why), a
// UserPromptSubmit hook adds context, PostToolUse hears what ran, and a hook that throws is an error message
// while the call goes ahead (hooks fail open, docs/hooks.md).
import { query } from 'jarvis-code/sdk';
import { base, collect, out } from './common.mjs';

const heard = [];
const messages = await collect(
  query({
    prompt: 'clean up, then list the text files',
    options: {
      ...base,
      permissionMode: 'yolo',
      hooks: {
        UserPromptSubmit: [{ hooks: [(input) => (heard.push(input), 'The repository is called lighthouse.')] }],
        PreToolUse: [
          {
            matcher: '^Bash$',
            hooks: [
              async ({ tool_input }) =>
                tool_input.command.includes('rm -rf')
                  ? { permissionDecision: 'deny', reason: 'rm -rf is not allowed; delete files one by one' }
                  : undefined,
            ],
          },
          {
            matcher: '^Glob$',
            hooks: [
              () => {
                throw new Error('the audit log is unreachable');
              },
            ],
          },
        ],
        PostToolUse: [{ hooks: [(input) => void heard.push(input)] }],
      },
    },
  }),
);
out({ heard, messages });
