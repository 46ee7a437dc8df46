/**
 * The checks every HTTP request to the MCP endpoint passes before anything
 * else: Host must be loopback (DNS rebinding), Origin absent or loopback (a
 * web page cannot drive it), and the bearer token must match (constant time).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** "127.0.0.1:1234" → "127.0.0.1"; "[::1]:80" → "[::1]" */
function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0];
}

export function isLoopbackHost(hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && LOOPBACK_HOSTS.has(hostnameOf(hostHeader));
}

export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** Compares digests so neither the content nor the length of the token leaks through timing. */
export function hasBearerToken(headers: IncomingHttpHeaders, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]), digest(token));
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

export function checkRequest(headers: IncomingHttpHeaders, token: string): GuardVerdict {
  if (!isLoopbackHost(headers.host)) return { ok: false, status: 403, message: 'Host must be 127.0.0.1 or localhost.' };
  if (!isAllowedOrigin(headers.origin))
    return { ok: false, status: 403, message: 'Cross-origin requests are not allowed.' };
  if (!hasBearerToken(headers, token)) return { ok: false, status: 401, message: 'Missing or wrong bearer token.' };
  return { ok: true };
}
