// What bench/resume.bench.mjs needs from the sources, bundled by it with esbuild.
export { Session } from '../src/engine/session';
export { isJournalRecord } from '../src/engine/records';
export { readJournal } from '../src/store/journal';
