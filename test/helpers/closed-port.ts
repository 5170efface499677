import { connect } from 'node:net';

/**
 * A loopback port nothing listens on, checked by a refused connection. Drawn below the kernel's ephemeral range
 * (32768–60999 on Linux), where the servers of tests running meanwhile (`listen(0)`) and outgoing connections never
 * land: a port bound and released there could be taken by another test's server before this one's run used it.
 */
export async function closedPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no closed loopback port found below the ephemeral range');
}
