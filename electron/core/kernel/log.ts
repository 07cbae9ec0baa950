import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from './fs';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
  /**
   * Calls `sink` with every record of this logger and all its relatives (whatever the file's
   * level; fields already redacted) until the returned function is called. Lets a transport
   * (MCP log notifications) follow Mailroom's log without the logger knowing about it.
   */
  subscribe(sink: LogSink): () => void;
  close(): void;
}

/** One log record as sinks see it: the fields are already redacted. */
export interface LogRecord {
  level: LogLevel;
  scope: string;
  msg: string;
  fields?: Record<string, unknown>;
}
export type LogSink = (rec: LogRecord) => void;

/** Keys whose values never reach a log line. */
const SECRET_KEY = /(token|secret|password|passwd|authorization|api[_-]?key|cookie|credential)/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

export interface LoggerOptions {
  /** File to append JSON lines to (created with its folder). */
  file?: string;
  /** Where human-readable lines go; stdout is never used so stdio MCP stays clean. */
  stderr?: boolean;
  level?: LogLevel;
}

export function createLogger(opts: LoggerOptions = {}, scope = 'mailroom'): Logger {
  const level = opts.level ?? ((process.env.MAILROOM_LOG_LEVEL as LogLevel | undefined) ?? 'info');
  let fd: number | undefined;
  if (opts.file) {
    // logs/ and its files are the user's only (0700 / 0600), whatever the umask or an older version left.
    ensurePrivateDir(path.dirname(opts.file));
    fd = fs.openSync(opts.file, 'a', 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
    } catch {
      /* a platform without POSIX modes */
    }
  }
  const state = { fd, closed: false, sinks: new Set<LogSink>() };
  const make = (s: string): Logger => {
    const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      const toFile = (state.fd !== undefined || !!opts.stderr) && ORDER[lvl] >= ORDER[level];
      if ((!toFile && state.sinks.size === 0) || state.closed) return;
      const safe = fields ? (redact(fields) as Record<string, unknown>) : undefined;
      for (const sink of state.sinks) {
        try {
          sink({ level: lvl, scope: s, msg, ...(safe ? { fields: safe } : {}) });
        } catch {
          /* a sink must never take logging down */
        }
      }
      if (!toFile) return;
      const rec = { t: new Date().toISOString(), level: lvl, scope: s, msg, ...(safe ?? {}) };
      if (state.fd !== undefined) {
        try {
          fs.writeSync(state.fd, JSON.stringify(rec) + '\n');
        } catch {
          /* logging must never take the process down */
        }
      }
      if (opts.stderr) {
        const extra = safe ? ' ' + JSON.stringify(safe) : '';
        process.stderr.write(`[${s}] ${lvl}: ${msg}${extra}\n`);
      }
    };
    return {
      debug: (m, f) => write('debug', m, f),
      info: (m, f) => write('info', m, f),
      warn: (m, f) => write('warn', m, f),
      error: (m, f) => write('error', m, f),
      child: (sub) => make(`${s}:${sub}`),
      subscribe: (sink) => {
        state.sinks.add(sink);
        return () => void state.sinks.delete(sink);
      },
      close: () => {
        if (state.closed) return;
        state.closed = true;
        state.sinks.clear();
        if (state.fd !== undefined) fs.closeSync(state.fd);
      },
    };
  };
  return make(scope);
}

/** A logger that writes nothing (tests); its records still reach subscribers. */
export function silentLogger(): Logger {
  return createLogger({});
}
