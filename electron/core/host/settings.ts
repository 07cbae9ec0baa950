import fs from 'node:fs';
import path from 'node:path';
import { parseWith } from '../kernel/tool';
import { MailroomError, invalidArgument } from '../kernel/errors';
import type { CoreContext, RouteDef } from '../kernel/types';
import { countNotes } from '../domains/vault';
import { implement } from '../kernel/route';
import { settingsRoutes as R, type CheckResult, type SettingsDto } from '../../../shared/contract/settings';
import { SECRET_MASK } from '../../../shared/secrets';
import { configFilePath, updateConfigFile, type ConfigFile } from './config';

export interface SettingsDeps {
  port(): number;
  address(): { preferred: number; note: string | null };
  /** Pushes the vault to `url` (Test push). */
  push(url: string): Promise<{ ok: boolean; ref: string }>;
  /** Restarts the owner on a new vault; absent where no owner runs (CLI's in-process core). */
  restart?: (next: { vaultDir: string }) => void;
}

const realOrSelf = (p: string) => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};
const inside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** A remote URL as shown: any password in it masked. */
export function maskRemote(url: string): string {
  // By hand, not with URL: it would percent-encode the mask.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]+@/i, `$1${SECRET_MASK}@`);
}

/** Checks a folder chosen as the vault; returns its absolute real path. */
export function validateVaultFolder(input: string, dataDir: string): string {
  const expanded = input.startsWith('~') ? path.join(process.env.HOME ?? '', input.slice(1)) : input;
  if (!path.isAbsolute(expanded)) throw invalidArgument(`Give the vault as a full path (for example /home/you/notes), not "${input}".`, { path: input });
  let st: fs.Stats;
  try {
    st = fs.statSync(expanded);
  } catch {
    throw new MailroomError('vault_not_found', `There is no folder at ${expanded}. Create it first, or choose an existing folder.`, { path: expanded }, 400);
  }
  if (!st.isDirectory()) throw new MailroomError('vault_not_folder', `${expanded} is a file, not a folder. Choose the folder that holds your notes.`, { path: expanded }, 400);
  try {
    fs.accessSync(expanded, fs.constants.R_OK | fs.constants.X_OK);
    fs.readdirSync(expanded);
  } catch {
    throw new MailroomError('vault_unreadable', `Mailroom cannot read ${expanded} (permission denied). Give your user read and write access to it, or choose another folder.`, { path: expanded }, 400);
  }
  try {
    fs.accessSync(expanded, fs.constants.W_OK);
  } catch {
    throw new MailroomError('vault_read_only', `${expanded} is read-only for Mailroom; it saves captured notes there. Give your user write access, or choose another folder.`, { path: expanded }, 400);
  }
  const real = realOrSelf(expanded);
  const data = realOrSelf(dataDir);
  if (inside(real, data)) throw new MailroomError('vault_in_data_dir', `${expanded} is inside Mailroom's data folder (${dataDir}), which holds its databases and token. Choose a folder of your own.`, { path: expanded }, 400);
  if (inside(data, real)) throw new MailroomError('vault_contains_data_dir', `${expanded} contains Mailroom's data folder (${dataDir}); its token and databases would become notes. Choose a folder that does not contain it.`, { path: expanded }, 400);
  return real;
}


function checkRemote(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalidArgument(`"${maskRemote(url)}" is not a URL. Use the https address of the repository, e.g. https://git.example.com/you/notes.git.`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalidArgument(`Only http(s) remotes are supported (got ${u.protocol}). Use the https address of the repository.`);
}

/** Calls an OpenAI-compatible endpoint with a one-word prompt; says in words what went wrong. */
export async function testLlm(llm: { base_url: string; model: string; api_key?: string }, timeoutMs = 20_000): Promise<CheckResult> {
  let url: URL;
  try {
    url = new URL(llm.base_url.replace(/\/+$/, '') + '/chat/completions');
  } catch {
    return { ok: false, code: 'invalid_url', message: `"${llm.base_url}" is not a URL. Use the base address, e.g. http://127.0.0.1:11434/v1 for Ollama.` };
  }
  const where = url.host;
  try {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.api_key ? { authorization: `Bearer ${llm.api_key}` } : {}) },
      body: JSON.stringify({ model: llm.model, messages: [{ role: 'user', content: 'Reply with the single word: ready' }], max_tokens: 5 }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (r.status === 401 || r.status === 403) return { ok: false, code: 'auth_failed', message: `${where} refused the API key (HTTP ${r.status}). Check the key.` };
    if (r.status === 404) return { ok: false, code: 'not_found', message: `${where} answered 404: the model "${llm.model}" or the path ${url.pathname} does not exist there. Check the base URL (it usually ends in /v1) and the model name.` };
    if (!r.ok) return { ok: false, code: 'server_error', message: `${where} answered HTTP ${r.status}. ${(await r.text()).slice(0, 200)}` };
    const body = (await r.json().catch(() => undefined)) as { choices?: Array<{ message?: { content?: string } }> } | undefined;
    const text = body?.choices?.[0]?.message?.content;
    if (typeof text !== 'string') return { ok: false, code: 'bad_reply', message: `${where} answered, but not like an OpenAI-compatible chat endpoint (no choices[0].message.content).` };
    return { ok: true, message: `${llm.model} at ${where} answered: "${text.trim().slice(0, 60)}".` };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    const code = err.cause?.code ?? (err.name === 'TimeoutError' ? 'timeout' : '');
    if (code === 'ECONNREFUSED') return { ok: false, code: 'unreachable', message: `Could not reach ${where}: nothing is listening there. Is the model server running?` };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { ok: false, code: 'host_not_found', message: `Could not reach ${where}: there is no server called ${url.hostname}.` };
    if (code === 'timeout') return { ok: false, code: 'timeout', message: `${where} did not answer within ${Math.round(timeoutMs / 1000)} s.` };
    return { ok: false, code: 'unreachable', message: `Could not reach ${where}: ${err.message}.` };
  }
}

/** REST for Settings: what is configured, and changing it (written to `<data-dir>/config.json`). */
export function settingsRoutes(ctx: CoreContext, deps: SettingsDeps): RouteDef[] {
  const { config } = ctx;
  const secrets = ctx.platform.secrets;
  /** Keeps the in-memory config (read by domains at use time) in step with the file, secrets opened. */
  const applyFile = (file: ConfigFile) => {
    const llm = file.llm;
    let apiKey: string | undefined = llm?.api_key;
    if (llm?.api_key_sealed) {
      try {
        apiKey = secrets.decrypt(llm.api_key_sealed);
      } catch {
        apiKey = undefined;
      }
    }
    config.file = { ...file, ...(llm ? { llm: { base_url: llm.base_url, model: llm.model, ...(apiKey ? { api_key: apiKey } : {}) } } : {}) };
  };

  const view = (): SettingsDto => {
    const f = config.file;
    const port = deps.port();
    return {
      data_dir: config.dataDir,
      config_file: configFilePath(config.dataDir),
      vault: { path: config.vaultDir, demo: config.demoVault },
      address: { port, preferred: deps.address().preferred, note: deps.address().note, url: `http://127.0.0.1:${port}` },
      git_remote: f.git_remote ? maskRemote(f.git_remote) : null,
      llm: f.llm ? { base_url: f.llm.base_url, model: f.llm.model, has_api_key: !!f.llm.api_key } : null,
      models: f.models ?? {},
    };
  };

  return [
    implement(R.get, () => view()),
    implement(R.vault, (req) => {
      const body = parseWith(R.vault.body, req.body, 'vault');
      const dir = validateVaultFolder(body.path, config.dataDir);
      const notes = countNotes(dir);
      applyFile(updateConfigFile(config.dataDir, { vault: dir }));
      const restarting = !!deps.restart && dir !== realOrSelf(config.vaultDir);
      // After the reply is on its way: the owner stops this core and starts one on the new vault.
      if (restarting) setTimeout(() => deps.restart!({ vaultDir: dir }), 150).unref();
      return { path: dir, notes, restarting };
    }),
    implement(R.gitRemote, (req) => {
      const { url } = parseWith(R.gitRemote.body, req.body, 'git remote');
      if (url) checkRemote(url);
      // A masked URL sent back means "keep the stored one".
      const keep = url.includes(SECRET_MASK) && config.file.git_remote && maskRemote(config.file.git_remote) === url;
      if (!keep) applyFile(updateConfigFile(config.dataDir, { git_remote: url || undefined }));
      return view();
    }),
    implement(R.testGitRemote, async (req): Promise<CheckResult> => {
      const b = parseWith(R.testGitRemote.body, req.body, 'git remote');
      let url = b.url?.trim() ? b.url.trim() : config.file.git_remote;
      if (url && config.file.git_remote && url === maskRemote(config.file.git_remote)) url = config.file.git_remote;
      if (!url) throw new MailroomError('git_remote_missing', 'No git remote set. Type the https address of the repository first.', {}, 400);
      checkRemote(url);
      try {
        const r = await deps.push(url);
        return { ok: r.ok, message: r.ok ? `Pushed ${r.ref} to ${maskRemote(url)}.` : `The server did not accept the push of ${r.ref}.` };
      } catch (e) {
        const err = e as MailroomError;
        return { ok: false, code: err.code ?? 'git_push_failed', message: (err.message ?? String(e)).split(url).join(maskRemote(url)) };
      }
    }),
    implement(R.llm, (req) => {
      const b = parseWith(R.llm.body, req.body, 'LLM endpoint');
      if (!b.base_url) {
        applyFile(updateConfigFile(config.dataDir, { llm: undefined }));
        return view();
      }
      try {
        new URL(b.base_url);
      } catch {
        throw invalidArgument(`"${b.base_url}" is not a URL. Use the base address, e.g. http://127.0.0.1:11434/v1 for Ollama.`);
      }
      if (!b.model) throw invalidArgument('Name the model to use (e.g. llama3.2).');
      const plain = config.file.llm?.api_key;
      // A key stored in clear by an older version is sealed now.
      const cur = readSealed(config.dataDir) ?? (plain ? secrets.encrypt(plain) : undefined);
      const sealed = b.api_key === undefined || b.api_key === SECRET_MASK ? cur : b.api_key === '' ? undefined : secrets.encrypt(b.api_key);
      applyFile(updateConfigFile(config.dataDir, { llm: { base_url: b.base_url, model: b.model, ...(sealed ? { api_key_sealed: sealed } : {}) } }));
      return view();
    }),
    implement(R.testLlm, async (req) => {
      const b = parseWith(R.testLlm.body, req.body ?? {}, 'LLM endpoint');
      const apiKey = b.api_key === undefined || b.api_key === SECRET_MASK ? config.file.llm?.api_key : b.api_key || undefined;
      if (!b.base_url || !b.model) throw invalidArgument('Fill in the base URL and the model to test the endpoint.');
      return testLlm({ base_url: b.base_url, model: b.model, api_key: apiKey });
    }),
  ];
}

/** The sealed API key as stored in config.json (plain keys from older files are sealed on the next save). */
function readSealed(dataDir: string): string | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(configFilePath(dataDir), 'utf8')) as ConfigFile;
    return raw.llm?.api_key_sealed;
  } catch {
    return undefined;
  }
}

/** At start: opens a sealed LLM key into the in-memory config (never written back in clear). */
export function openSealedConfig(ctx: CoreContext): void {
  const llm = ctx.config.file.llm;
  if (!llm?.api_key_sealed) return;
  try {
    ctx.config.file = { ...ctx.config.file, llm: { base_url: llm.base_url, model: llm.model, api_key: ctx.platform.secrets.decrypt(llm.api_key_sealed) } };
  } catch {
    ctx.log.warn('the LLM API key in config.json cannot be opened on this machine; enter it again in Settings');
    ctx.config.file = { ...ctx.config.file, llm: { base_url: llm.base_url, model: llm.model } };
  }
}
