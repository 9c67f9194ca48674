// canUseTool denies a Write (the model is told why) and rewrites a Bash command before it runs.
import { query } from 'jarvis-code/sdk';
import { base, collect, out } from './common.mjs';

const asked = [];
const messages = await collect(
  query({
    prompt: 'write a file, then run a command',
    options: {
      ...base,
      permissionMode: 'manual',
      canUseTool: async (toolName, input, { signal }) => {
        asked.push({ toolName, input, aborted: signal.aborted });
        if (toolName === 'Write') return { behavior: 'deny', message: 'Writing files is not allowed in this check.' };
        if (toolName === 'Bash')
          return { behavior: 'allow', updatedInput: { ...input, command: 'echo rewritten-by-sdk' } };
        return { behavior: 'allow' };
      },
    },
  }),
);
out({ asked, messages });
