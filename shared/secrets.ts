/**
 * Which adapter values are secret, and how they look when shown or logged (server and UI). Any value (env
 * variable, header, argument, URL query parameter) can be marked secret by the user; these
 * helpers give the default for names that look like credentials. Secret values are sealed at rest
 * (store.ts), masked on the wire (the API shows SECRET_MASK and a `secret` flag) and in logs.
 */

/** What the API shows in place of a secret value. Sending it back means "keep the stored one". */
export const SECRET_MASK = '••••••••';

// Name parts that mark a credential: DB_PASS, GITHUB_PAT, X-Api-Key, sessionId, client.secret …
const SECRET_PART =
  /^(pass|passwd|password|passphrase|pwd|pw|secret|token|pat|key|apikey|accesskey|secretkey|privatekey|accesstoken|authtoken|refreshtoken|idtoken|auth|authorization|credential|cred|creds|bearer|private|session|sessionid|sid|cookie|jwt|otp|signature|sig|dsn|webhook)s?$/;

// Run-together names: PGPASSWORD, GHTOKEN, CLIENTSECRET, OPENAIAPIKEY.
const SECRET_SUFFIX = /(password|passwd|passphrase|secret|token|apikey|credentials?)s?$/;

/** Splits a name into lower-case word parts at `_`, `-`, `.`, spaces and camelCase boundaries. */
export function nameParts(name: string): string[] {
  return name
    .replace(/^-+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-:/]+/)
    .map((p) => p.toLowerCase())
    .filter(Boolean);
}

/** True when a variable, header, flag or query parameter name looks like it holds a credential. */
export function looksSecret(name: string): boolean {
  const parts = nameParts(name);
  if (parts.some((p) => SECRET_PART.test(p) || SECRET_SUFFIX.test(p))) return true;
  // api_key / API-KEY / apiKey split into two parts; join neighbours to catch the compound forms too.
  for (let i = 1; i < parts.length; i++) if (SECRET_PART.test(`${parts[i - 1] ?? ''}${parts[i] ?? ''}`)) return true;
  return false;
}

const FLAG = /^--?([A-Za-z][\w.-]*)$/;
const FLAG_EQ = /^(--?[A-Za-z][\w.-]*=)([\s\S]*)$/;

/** Default secret flags for an argv: the value after `--token`, `--api-key=…`, `-p` style flags with secret-looking names. */
export function detectSecretArgs(args: string[]): boolean[] {
  return args.map((arg, i) => {
    const eq = FLAG_EQ.exec(arg);
    if (eq) {
      const [, flag = '', value = ''] = eq;
      return looksSecret(flag.replace(/=$/, '')) && value.length > 0;
    }
    const prevFlag = FLAG.exec(args[i - 1] ?? '')?.[1];
    return prevFlag !== undefined && arg.length > 0 && !FLAG.test(arg) && looksSecret(prevFlag);
  });
}

/** How a secret argument is shown: `--token=••••` keeps its flag, a bare value is the mask. */
export function maskArg(arg: string): string {
  const eq = FLAG_EQ.exec(arg);
  return eq ? eq[1] + SECRET_MASK : SECRET_MASK;
}

/** An argv with its secret entries masked (for the API and logs). */
export function maskArgs(args: string[], secret: boolean[]): string[] {
  return args.map((a, i) => (secret[i] ? maskArg(a) : a));
}

export interface QueryParam {
  name: string;
  value: string;
}

/** A URL split around its query, without re-encoding anything (so masks and values stay as typed). */
export function splitUrl(url: string): { base: string; params: QueryParam[]; hash: string } {
  const hashAt = url.indexOf('#');
  const hash = hashAt >= 0 ? url.slice(hashAt) : '';
  const noHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const q = noHash.indexOf('?');
  if (q < 0) return { base: noHash, params: [], hash };
  const params = noHash
    .slice(q + 1)
    .split('&')
    .filter((p) => p.length > 0)
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? { name: p, value: '' } : { name: p.slice(0, eq), value: p.slice(eq + 1) };
    });
  return { base: noHash.slice(0, q), params, hash };
}

export function joinUrl(parts: { base: string; params: QueryParam[]; hash: string }): string {
  const query = parts.params.map((p) => (p.value === '' ? p.name : `${p.name}=${p.value}`)).join('&');
  return parts.base + (query ? `?${query}` : '') + parts.hash;
}

const decodeName = (n: string): string => {
  try {
    return decodeURIComponent(n.replace(/\+/g, ' '));
  } catch {
    return n;
  }
};

/** Names of the URL's query parameters that look secret (?token=, ?api_key=, ?sig= …). */
export function detectSecretParams(url: string): string[] {
  return splitUrl(url)
    .params.filter((p) => p.value !== '' && looksSecret(decodeName(p.name)))
    .map((p) => decodeName(p.name));
}

/** The URL with the values of the named query parameters replaced by the mask (for the API and logs). */
export function maskUrl(url: string, secretNames: string[]): string {
  if (!secretNames.length) return url;
  const parts = splitUrl(url);
  return joinUrl({ ...parts, params: parts.params.map((p) => (secretNames.includes(decodeName(p.name)) && p.value !== '' ? { name: p.name, value: SECRET_MASK } : p)) });
}

/** Values of the named query parameters, raw and decoded (both are scrubbed from messages). */
export function paramValues(url: string, names: string[]): string[] {
  const out: string[] = [];
  for (const p of splitUrl(url).params) {
    if (!names.includes(decodeName(p.name)) || !p.value) continue;
    out.push(p.value);
    const dec = decodeName(p.value);
    if (dec !== p.value) out.push(dec);
  }
  return out;
}

export { decodeName as decodeParamName };

/** Every secret value of an adapter (env, headers, arguments, URL parameters), for scrubbing text we keep or show. */
export function adapterSecrets(a: { env: Array<{ value: string; secret: boolean }>; headers: Array<{ value: string; secret: boolean }>; args: string[]; arg_secrets: boolean[]; url: string | null; url_secrets: string[] }): string[] {
  const out = [...a.env, ...a.headers].filter((kv) => kv.secret).map((kv) => kv.value);
  a.args.forEach((arg, i) => {
    if (!a.arg_secrets[i]) return;
    out.push(arg);
    const value = FLAG_EQ.exec(arg)?.[2];
    if (value !== undefined) out.push(value);
  });
  if (a.url) out.push(...paramValues(a.url, a.url_secrets));
  return [...new Set(out)].filter((v) => v.length >= 4);
}

/** What to log about how an adapter is started: argv and URL with secrets masked. */
export function adapterLaunchForLog(a: { command: string | null; args: string[]; arg_secrets: boolean[]; url: string | null; url_secrets: string[] }): { argv?: string[]; url?: string } {
  return a.url !== null ? { url: maskUrl(a.url, a.url_secrets) } : { argv: [a.command ?? '', ...maskArgs(a.args, a.arg_secrets)] };
}
