import net from 'node:net';

/**
 * Sends raw bytes to 127.0.0.1:port and resolves with everything the server wrote before it
 * closed the socket (or `timeoutMs` passed). Lets tests send what no well-behaved client would.
 */
export function rawExchange(port: number, data: string | Buffer, timeoutMs = 10_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: false });
    }, timeoutMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (e) => {
      // A reset after the answer is still an answer.
      if (chunks.length === 0) {
        clearTimeout(timer);
        reject(e);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: true });
    });
    socket.write(data);
  });
}

/** The status code of the first HTTP response in `text` (0 when none). */
export function statusOf(text: string): number {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return m ? Number(m[1]) : 0;
}

export function upgradeRequest(target: string, port: number, extra: Record<string, string> = {}): string {
  const headers: Record<string, string> = {
    host: `127.0.0.1:${port}`,
    upgrade: 'websocket',
    connection: 'Upgrade',
    'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    'sec-websocket-version': '13',
    ...extra,
  };
  return `GET ${target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
}
