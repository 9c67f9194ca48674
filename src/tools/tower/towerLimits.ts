// Tower's fixed limits, shared by the tool descriptions and the engine (docs/tower.md "Concurrency").
export const TOWER_MAX_CONCURRENCY = 16;
export const TOWER_INITIAL_CONCURRENCY = 4;
