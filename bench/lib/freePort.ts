import net from 'node:net';

/** A port nobody listens on right now. The child binds it a moment later; a clash makes its start fail loudly. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => {
        if (port === 0) reject(new Error(`no free port on ${host}`));
        else resolve(port);
      });
    });
  });
}
