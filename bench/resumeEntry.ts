// What bench/resume.bench.mjs needs from the sources, bundled by it with esbuild.
export { Session } from '../src/engine/session/session';
export { isJournalRecord } from '../src/engine/session/records';
export { readJournal } from '../src/store/journal';
