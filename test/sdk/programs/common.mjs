// Shared by the SDK test programs (test/sdk/sdkPackage.test.ts): the loopback model as `provider`, and output as
// one JSON line per record, so the test reads what the program saw.
export const provider = { type: 'openai', apiKey: 'test-key', baseUrl: process.env.MOCK_BASE_URL };
export const base = { cwd: process.env.WORK, model: 'mock-model', provider };
import { tool } from 'jarvis-code/sdk';

export const out = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
// process.stdout and process.stderr are created on first use and live as long as the process: made here, before any
// count, so the count compares only what a query opens.
void process.stdout;
void process.stderr;
/** Open handles, a socket with where it goes (a model connection, a pipe of a child process). */
export const handles = () =>
  process
    ._getActiveHandles()
    .map((h) =>
      h.constructor.name === 'Socket'
        ? `Socket ${h.remoteAddress ?? ''}:${h.remotePort ?? ''} fd=${h._handle?.fd}`
        : h.constructor.name,
    );

export async function collect(q) {
  const messages = [];
  for await (const m of q) messages.push(m);
  return messages;
}

process.on('unhandledRejection', (e) => {
  out({ unhandledRejection: String(e?.stack ?? e) });
  process.exitCode = 99;
});

/** A read-only tool that waits until its turn is stopped; `started` resolves when the model has called it. */
export function waitTool() {
  let markStarted;
  const started = new Promise((resolve) => (markStarted = resolve));
  const state = { sawAbort: false, started };
  state.tool = tool({
    name: 'wait_for_stop',
    description: 'Waits until it is stopped.',
    inputSchema: { type: 'object', properties: {} },
    readOnly: true,
    handler: (_input, { signal }) =>
      new Promise((resolve) => {
        markStarted();
        signal.addEventListener('abort', () => {
          state.sawAbort = true;
          resolve('stopped');
        });
      }),
  });
  return state;
}
