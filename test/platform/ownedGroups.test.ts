// Process groups this process must not leave behind (src/platform/ownedGroups.ts): a command's group is owned
// while its leader runs; a service's group until it is gone, even when its leader exits before the rest of it;
// a group started with `own: 'none'` (a background task kept alive on exit) is never owned.
import { describe, expect, it } from 'vitest';
import { groupOwnership } from '../../src/platform/ownedGroups';
import { isGroupAliveAsync, spawnShell, terminateGroup, waitForExit } from '../../src/platform/processes';
import { waitUntil } from '../helpers/cli';

describe('owned process groups', () => {
  it("a command's group is owned while its leader runs, and let go when it exits", async () => {
    const child = spawnShell('sleep 0.2', { cwd: process.cwd() });
    expect(groupOwnership(child.pid!)).toBe('command');
    await waitForExit(child);
    expect(groupOwnership(child.pid!)).toBeUndefined();
  });

  it("a service's group stays owned after its leader exits while something of it runs, until it is stopped", async () => {
    const child = spawnShell('sleep 30 & echo started', { cwd: process.cwd(), own: 'service' });
    await waitForExit(child);
    // The leader is gone, the `sleep` it left in the group is not: still ours to stop. (The registry's own look
    // at the group started when the leader exited; two looks of ours take at least as long.)
    expect(await isGroupAliveAsync(child.pid!)).toBe(true);
    expect(await isGroupAliveAsync(child.pid!)).toBe(true);
    expect(groupOwnership(child.pid!)).toBe('service');
    await terminateGroup(child.pid!, { graceMs: 1_000 });
    expect(groupOwnership(child.pid!)).toBeUndefined();
  });

  it('a service whose whole group ended is let go without anyone stopping it', async () => {
    const child = spawnShell('true', { cwd: process.cwd(), own: 'service' });
    await waitForExit(child);
    await waitUntil(() => groupOwnership(child.pid!) === undefined, 5_000, 'the group to be let go');
  });

  it("own: 'none' is never owned", async () => {
    const child = spawnShell('sleep 0.1', { cwd: process.cwd(), own: 'none' });
    expect(groupOwnership(child.pid!)).toBeUndefined();
    await waitForExit(child);
  });
});
