// Opening an X11 connection (docs/computer-use.md, "Why the X protocol"): the socket of the display, the setup
// request with the Xauthority cookie, and the server's description of itself and its screens.
import { createConnection, type Socket } from 'node:net';
import { unixSocketPath, X11DisplayError, type X11Address } from './x11Display';

/** Pads a length to a multiple of 4 bytes, as every part of the protocol is. */
export function padded(length: number): number {
  return (length + 3) & ~3;
}

export interface X11Visual {
  depth: number;
  redMask: number;
  greenMask: number;
  blueMask: number;
}

export interface X11Screen {
  root: number;
  width: number;
  height: number;
  rootDepth: number;
  rootVisual: number;
  whitePixel: number;
  blackPixel: number;
  defaultColormap: number;
  visuals: Map<number, X11Visual>;
}

export interface X11Setup {
  vendor: string;
  resourceIdBase: number;
  resourceIdMask: number;
  /** In 4-byte units. */
  maxRequestLength: number;
  imageByteOrder: 'lsb' | 'msb';
  minKeycode: number;
  maxKeycode: number;
  formats: Array<{ depth: number; bitsPerPixel: number; scanlinePad: number }>;
  screens: X11Screen[];
}

export function connectSocket(address: X11Address, timeoutMs: number): Promise<Socket> {
  const attempt = (options: { path: string } | { host: string; port: number }) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = createConnection(options);
      const timer = setTimeout(
        () => (socket.destroy(), reject(new Error(`no answer within ${timeoutMs / 1000} s`))),
        timeoutMs,
      );
      socket.once('connect', () => (clearTimeout(timer), resolve(socket)));
      socket.once('error', (e) => (clearTimeout(timer), reject(e)));
    });
  const where = address.transport === 'unix' ? unixSocketPath(address) : `${address.host}:${6000 + address.display}`;
  const failed = (e: Error) =>
    new X11DisplayError(`cannot connect to the X server of DISPLAY=${address.name} (${where}): ${e.message}`);
  if (address.transport === 'tcp')
    return attempt({ host: address.host, port: 6000 + address.display }).catch((e: Error) => Promise.reject(failed(e)));
  // Some servers listen only on the abstract socket of the same name (Linux).
  return attempt({ path: unixSocketPath(address) }).catch((e: NodeJS.ErrnoException) =>
    e.code === 'ENOENT' || e.code === 'ECONNREFUSED'
      ? attempt({ path: `\0${unixSocketPath(address)}` }).catch(() => Promise.reject(failed(e)))
      : Promise.reject(failed(e)),
  );
}

/** Sends the connection setup and reads the server's answer. */
export function handshake(
  socket: Socket,
  address: X11Address,
  cookie: { name: string; data: Buffer } | undefined,
  timeoutMs: number,
): Promise<X11Setup> {
  const name = Buffer.from(cookie?.name ?? '', 'latin1');
  const data = cookie?.data ?? Buffer.alloc(0);
  const request = Buffer.alloc(12 + padded(name.length) + padded(data.length));
  request[0] = 0x6c; // 'l': little-endian
  request.writeUInt16LE(11, 2);
  request.writeUInt16LE(0, 4);
  request.writeUInt16LE(name.length, 6);
  request.writeUInt16LE(data.length, 8);
  name.copy(request, 12);
  data.copy(request, 12 + padded(name.length));
  return new Promise<X11Setup>((resolve, reject) => {
    let got = Buffer.alloc(0);
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `the X server of DISPLAY=${address.name} did not answer the connection setup within ${timeoutMs / 1000} s`,
          ),
        ),
      timeoutMs,
    );
    const finish = (result: Error | X11Setup) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onError = (e: Error) =>
      finish(new X11DisplayError(`the X server of DISPLAY=${address.name} failed during setup: ${e.message}`));
    const onData = (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length < 8) return;
      const total = 8 + 4 * got.readUInt16LE(6);
      if (got.length < total) return;
      if (got[0] !== 1) {
        const reason =
          got
            .subarray(8, 8 + got[1])
            .toString('latin1')
            .trim() || got.subarray(8, total).toString('latin1').replace(/\0+$/, '').trim();
        const hint = cookie
          ? ''
          : ' (no cookie for it was found in the Xauthority file; set XAUTHORITY to the file your desktop uses)';
        return finish(
          new X11DisplayError(
            `the X server of DISPLAY=${address.name} refused the connection: ${reason || 'no reason given'}${hint}`,
          ),
        );
      }
      // Anything after the setup block belongs to the connection proper: put it back.
      if (got.length > total) socket.unshift(got.subarray(total));
      finish(parseSetup(got.subarray(0, total)));
    };
    socket.on('data', onData);
    socket.on('error', onError);
    socket.write(request);
  });
}

function parseSetup(b: Buffer): X11Setup {
  const vendorLength = b.readUInt16LE(24);
  const screenCount = b[28];
  const formatCount = b[29];
  let at = 40 + padded(vendorLength);
  const formats = [];
  for (let i = 0; i < formatCount; i++, at += 8)
    formats.push({ depth: b[at], bitsPerPixel: b[at + 1], scanlinePad: b[at + 2] });
  const screens: X11Screen[] = [];
  for (let s = 0; s < screenCount; s++) {
    const screen: X11Screen = {
      root: b.readUInt32LE(at),
      defaultColormap: b.readUInt32LE(at + 4),
      whitePixel: b.readUInt32LE(at + 8),
      blackPixel: b.readUInt32LE(at + 12),
      width: b.readUInt16LE(at + 20),
      height: b.readUInt16LE(at + 22),
      rootVisual: b.readUInt32LE(at + 32),
      rootDepth: b[at + 38],
      visuals: new Map(),
    };
    const depthCount = b[at + 39];
    at += 40;
    for (let d = 0; d < depthCount; d++) {
      const depth = b[at];
      const visualCount = b.readUInt16LE(at + 2);
      at += 8;
      for (let v = 0; v < visualCount; v++, at += 24) {
        screen.visuals.set(b.readUInt32LE(at), {
          depth,
          redMask: b.readUInt32LE(at + 8),
          greenMask: b.readUInt32LE(at + 12),
          blueMask: b.readUInt32LE(at + 16),
        });
      }
    }
    screens.push(screen);
  }
  return {
    vendor: b.subarray(40, 40 + vendorLength).toString('latin1'),
    resourceIdBase: b.readUInt32LE(12),
    resourceIdMask: b.readUInt32LE(16),
    maxRequestLength: b.readUInt16LE(26),
    imageByteOrder: b[30] === 0 ? 'lsb' : 'msb',
    minKeycode: b[34],
    maxKeycode: b[35],
    formats,
    screens,
  };
}
