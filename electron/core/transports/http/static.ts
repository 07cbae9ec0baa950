import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { decodePathPart } from './errors';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    // ENOENT, ENAMETOOLONG, ENOTDIR, a NUL byte …: not a file we serve.
    return false;
  }
}

/**
 * Serves the built renderer; unknown paths fall back to index.html (client-side routes).
 * Throws MailroomError (400) for a path with malformed percent-encoding.
 */
export function serveStatic(root: string, pathname: string, res: ServerResponse, headers: Record<string, string>): void {
  const rel = decodePathPart(pathname).replace(/^\/+/, '');
  let file = path.resolve(root, rel || 'index.html');
  if (!file.startsWith(path.resolve(root) + path.sep) && file !== path.resolve(root)) {
    res.writeHead(404).end();
    return;
  }
  if (!isFile(file)) file = path.join(root, 'index.html');
  if (!isFile(file)) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The Mailroom UI is not built. Run `npm run build`, then reload.\n');
    return;
  }
  const ext = path.extname(file);
  res.writeHead(200, {
    ...headers,
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'cache-control': ext === '.html' ? 'no-store' : 'public, max-age=3600',
  });
  const stream = fs.createReadStream(file);
  // A file that vanished or became unreadable between stat and read ends this response, not the process.
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
