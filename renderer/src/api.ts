import type { ErrorShape } from '../../shared/errors';
import { isErrorShape } from '../../shared/errors';
import { callRoute, type CallArgs, type ReplyOf, type RouteSpec } from '../../shared/contract';

/**
 * How the renderer reaches the owner. In Electron the preload hands `{ baseUrl, token }`; in a
 * browser the page was opened as `/?token=…` and keeps the token for this tab.
 */
export interface Bridge {
  baseUrl: string;
  token: string;
}

declare global {
  interface Window {
    mailroom?: Bridge & { native?: { notify(title: string, body: string): void; pathsOf?(files: File[]): string[] } };
  }
}

const STORAGE_KEY = 'mailroom.token';

export function resolveBridge(): Bridge {
  if (window.mailroom) return { baseUrl: window.mailroom.baseUrl, token: window.mailroom.token };
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(STORAGE_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  return { baseUrl: window.location.origin, token: fromUrl ?? sessionStorage.getItem(STORAGE_KEY) ?? '' };
}

export const bridge: Bridge = resolveBridge();

/** An API error with the contract's shape. */
export class ApiError extends Error implements ErrorShape {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** What to show a person for a failed call: the owner's message for an API error, else the error as text. */
export const errorText = (e: unknown): string => (e instanceof ApiError ? e.message : String(e));

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(bridge.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${bridge.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    if (isErrorShape(data)) throw new ApiError(res.status, data.code, data.message, data.details);
    throw new ApiError(res.status, 'http_error', `HTTP ${res.status}`);
  }
  return data as T;
}

/**
 * Calls one route of the shared route table: `call(routes.router.getRoute, { params: { id } })`.
 * Path, parameters, query, body and reply are typed by the contract the owner implements; this is
 * the only way the renderer reaches the REST API (uploads with progress build their URL with `urlOf`).
 */
export function call<S extends RouteSpec>(spec: S, ...[args]: CallArgs<S> extends { params?: undefined; body?: undefined } ? [args?: CallArgs<S>] : [args: CallArgs<S>]): Promise<ReplyOf<S>> {
  return callRoute((method, path, body) => request<unknown>(method, path, body), spec, args ?? ({} as CallArgs<S>));
}

export { routes } from '../../shared/contract';
