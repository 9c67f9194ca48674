// maxBudgetUsd stops the run once the reported cost passes it.
import { query } from 'jarvis-code/sdk';
import { base, collect, out } from './common.mjs';

out({ messages: await collect(query({ prompt: 'spend', options: { ...base, maxBudgetUsd: 0.2 } })) });
