// Where an X11 display is and how to prove we may use it (docs/computer-use.md, "Set-up per desktop"): the
// DISPLAY name (`:0`, `:1.0`, `unix:0`, `localhost:10.0`) becomes a socket address, and the Xauthority file
// (XAUTHORITY, else ~/.Xauthority) gives the MIT-MAGIC-COOKIE-1 the X server asks for, when it asks.
import { readFileSync } from 'node:fs';
import { hostname, homedir } from 'node:os';
import { join } from 'node:path';

export interface X11Address {
  /** The DISPLAY value as given. */
  name: string;
  /** `unix`: the local socket /tmp/.X11-unix/X<n>; `tcp`: port 6000+n on host. */
  transport: 'unix' | 'tcp';
  host: string;
  display: number;
  screen: number;
}

export class X11DisplayError extends Error {}

/** Reads a DISPLAY value; a value that is not one throws with what was wrong. */
export function parseDisplay(value: string | undefined): X11Address {
  const name = (value ?? '').trim();
  if (!name) {
    throw new X11DisplayError(
      'DISPLAY is not set: there is no X11 display to use (start Jarvis from a desktop session, or set DISPLAY)',
    );
  }
  const m = /^([^:]*):(\d+)(?:\.(\d+))?$/.exec(name);
  if (!m) throw new X11DisplayError(`DISPLAY="${name}" is not an X11 display name (expected :0, :1.0 or host:10.0)`);
  const host = m[1];
  const local = host === '' || host === 'unix';
  return {
    name,
    transport: local ? 'unix' : 'tcp',
    host: local ? '' : host,
    display: Number(m[2]),
    screen: m[3] === undefined ? 0 : Number(m[3]),
  };
}

/** The path of the local socket of a display. */
export function unixSocketPath(address: X11Address): string {
  return `/tmp/.X11-unix/X${address.display}`;
}

export interface X11Cookie {
  name: string;
  data: Buffer;
}

const FAMILY_INTERNET = 0;
const FAMILY_INTERNET6 = 6;
const FAMILY_LOCAL = 256;
const FAMILY_WILD = 65535;
const COOKIE = 'MIT-MAGIC-COOKIE-1';

interface AuthEntry {
  family: number;
  address: Buffer;
  number: string;
  name: string;
  data: Buffer;
}

/** The entries of an Xauthority file (big-endian length-prefixed fields); a truncated tail is ignored. */
export function parseXauthority(bytes: Buffer): AuthEntry[] {
  const entries: AuthEntry[] = [];
  let at = 0;
  const field = (): Buffer | undefined => {
    if (at + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(at);
    if (at + 2 + length > bytes.length) return undefined;
    const value = bytes.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return value;
  };
  while (at + 2 <= bytes.length) {
    const family = bytes.readUInt16BE(at);
    at += 2;
    const address = field();
    const number = field();
    const name = field();
    const data = field();
    if (!address || !number || !name || !data) break;
    entries.push({ family, address, number: number.toString('latin1'), name: name.toString('latin1'), data });
  }
  return entries;
}

/** The bytes of an IPv4 address literal (`10.0.0.2`), else undefined. */
function ipBytes(host: string): Buffer | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256)) return undefined;
  return Buffer.from(parts.map(Number));
}

/** The Xauthority file X clients use: XAUTHORITY, else ~/.Xauthority. */
export function xauthorityPath(env: NodeJS.ProcessEnv): string {
  return env.XAUTHORITY?.trim() || join(env.HOME?.trim() || homedir(), '.Xauthority');
}

/**
 * The cookie for `address` from the Xauthority file, or undefined when the file is missing or has none
 * (an X server without access control, such as a plain Xvfb, needs none). A local display matches an entry
 * for this host name (family Local) or any host (Wild); a TCP display one for its host.
 */
export function findCookie(address: X11Address, env: NodeJS.ProcessEnv): X11Cookie | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(xauthorityPath(env));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new X11DisplayError(`the Xauthority file ${xauthorityPath(env)} cannot be read: ${(e as Error).message}`);
  }
  const number = String(address.display);
  // ssh X forwarding (DISPLAY=localhost:10.0) writes its cookie as this host's Local entry.
  const local = address.transport === 'unix' || address.host === 'localhost';
  const ip = local ? undefined : ipBytes(address.host);
  const matches = (e: AuthEntry) => {
    if (e.name !== COOKIE || (e.number !== number && e.number !== '')) return false;
    if (e.family === FAMILY_WILD) return true;
    if (e.family === FAMILY_LOCAL) return local && e.address.toString('latin1') === hostname();
    // A cookie goes to a remote host only when the entry names that very address: never someone else's.
    if (e.family === FAMILY_INTERNET || e.family === FAMILY_INTERNET6) return !!ip && e.address.equals(ip);
    return false;
  };
  const entry = parseXauthority(bytes).find(matches);
  return entry ? { name: entry.name, data: Buffer.from(entry.data) } : undefined;
}
