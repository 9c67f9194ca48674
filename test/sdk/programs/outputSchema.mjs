// outputSchema: the first answer does not fit, the second does; the result carries structured_output.
import { query } from 'jarvis-code/sdk';
import { base, collect, out } from './common.mjs';

const outputSchema = {
  type: 'object',
  properties: { status: { enum: ['pass', 'fail'] }, failures: { type: 'integer', minimum: 0 } },
  required: ['status', 'failures'],
  additionalProperties: false,
};
out({ messages: await collect(query({ prompt: 'check the build', options: { ...base, outputSchema } })) });
