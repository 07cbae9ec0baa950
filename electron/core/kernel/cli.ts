import { callRoute, type CallArgs, type ReplyOf, type RouteSpec } from '../../../shared/contract/route';
import type { Config } from './config';

/** What a CLI command needs: the config and the owner's REST API (remote or in-process). */
export interface CliRuntime {
  config(): Config;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  out(text: string): void;
  err(text: string): void;
  /** Stops an in-process core if one was started. */
  close(): Promise<void>;
}

export interface CliArgumentDef {
  /** commander syntax: `<path>`, `[name]`, `<words...>`. */
  name: string;
  description: string;
}

export interface CliOptionDef {
  /** commander syntax: `--inbox <id>`, `--json`. */
  flags: string;
  description: string;
  required?: boolean;
  default?: string;
}

/** Option values as commander parses them. */
export type CliOptionValues = Record<string, unknown>;

/**
 * A CLI command as data: domains describe their commands, `entry/cli` turns them into the
 * `mailroom` command tree. A definition without `run` is a group (`mailroom mail …`).
 */
export interface CliCommandDef {
  /** The words that name it: `['mail', 'import']` is `mailroom mail import`. */
  path: readonly string[];
  description: string;
  arguments?: readonly CliArgumentDef[];
  options?: readonly CliOptionDef[];
  /** Accepts --vault and --data-dir (default true for commands, false for groups). */
  dirs?: boolean;
  /** `args`: the positional arguments, a trailing variadic one spread out. */
  run?(rt: CliRuntime, args: string[], opts: CliOptionValues): Promise<void>;
}

/** Types a command's options for its `run`; commander has already checked required ones. */
export function defineCommand<O extends CliOptionValues>(def: Omit<CliCommandDef, 'run'> & { run(rt: CliRuntime, args: string[], opts: O): Promise<void> }): CliCommandDef {
  return { ...def, run: (rt, args, opts) => def.run(rt, args, opts as O) };
}

/** A group of commands (`mailroom mail …`). */
export const defineGroup = (path: readonly string[], description: string): CliCommandDef => ({ path, description });

/** A typed call of one route of the shared route table through the CLI's runtime. */
export function cliCall<S extends RouteSpec>(rt: CliRuntime, spec: S, args: CallArgs<S>): Promise<ReplyOf<S>> {
  return callRoute((method, path, body) => rt.call(method, path, body), spec, args);
}
