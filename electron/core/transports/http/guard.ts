import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * DNS-rebinding and CSRF defence (the MCP spec's guidance): the Host must be our own loopback
 * address and a present Origin must be our own origin.
 */
export function checkHostAndOrigin(req: IncomingMessage, port: number): { ok: true } | { ok: false; why: string } {
  const host = req.headers.host ?? '';
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!allowedHosts.includes(host.toLowerCase())) {
    return { ok: false, why: `Host '${host}' is not this Mailroom (expected 127.0.0.1:${port}).` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const allowedOrigins = allowedHosts.map((h) => `http://${h}`);
    if (!allowedOrigins.includes(origin.toLowerCase())) {
      return { ok: false, why: `Origin '${origin}' may not call Mailroom.` };
    }
  }
  return { ok: true };
}

export function tokensEqual(a: string | undefined | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function bearerOf(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h.trim());
  return m?.[1];
}

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const raw = req.headers.cookie;
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== name) continue;
    // A malformed cookie is just not our token; never let it throw.
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export const TOKEN_COOKIE = 'mailroom_token';

/** The renderer's CSP: our own scripts only, hub over our own WebSocket. */
export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "frame-src 'self' blob: data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}
