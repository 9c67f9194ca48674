// The program's version. The build (scripts/build.mjs) replaces __JARVIS_VERSION__ with the version from
// package.json; when the sources run unbundled (tests, tsx) it is not defined and we say 0.0.0-dev.

declare const __JARVIS_VERSION__: string | undefined;

export const JARVIS_VERSION: string = typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0-dev';
