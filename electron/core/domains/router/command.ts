import fs from 'node:fs';
import path from 'node:path';
import { MailroomError } from '../../kernel/errors';

export const COMMAND_INVALID = 'adapter_command_invalid';

/**
 * Resolves an adapter's command to an absolute executable, or says exactly why it cannot run.
 * Servers are spawned from an argv array without a shell, so the command must be a real file:
 * an absolute path, or a bare name found on PATH (the adapter's PATH if it sets one).
 */
export function resolveCommand(command: string, envPath: string | undefined = process.env.PATH): string {
  const c = command.trim();
  if (!c) throw new MailroomError(COMMAND_INVALID, 'The adapter has no command. Enter the program to start, e.g. "npx" or "/usr/local/bin/my-server".');
  if (c.includes('\0')) throw new MailroomError(COMMAND_INVALID, 'The command contains a NUL byte; enter a plain program name or path.');
  if (path.isAbsolute(c)) return checkFile(c, command);
  if (c.includes('/') || c.includes('\\')) {
    throw new MailroomError(COMMAND_INVALID, `"${command}" is a relative path; use an absolute path or a program name on PATH (arguments go in the args list, one per entry).`);
  }
  if (/\s/.test(c)) {
    throw new MailroomError(
      COMMAND_INVALID,
      `"${command}" contains spaces. The command is one program (no shell is used); put each argument in the args list, e.g. command "npx", args ["-y", "@modelcontextprotocol/server-memory"].`,
    );
  }
  const dirs = (envPath ?? '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? ['', '.exe', '.cmd', '.bat'] : [''];
  for (const d of dirs) {
    for (const ext of exts) {
      const p = path.join(d, c + ext);
      try {
        if (fs.statSync(p).isFile()) {
          fs.accessSync(p, fs.constants.X_OK);
          return p;
        }
      } catch {
        /* try the next directory */
      }
    }
  }
  throw new MailroomError(COMMAND_INVALID, `"${command}" was not found on PATH (searched ${dirs.length} folders). Install it, or enter its absolute path.`, {
    command,
    path: dirs,
  });
}

function checkFile(p: string, shown: string): string {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    throw new MailroomError(COMMAND_INVALID, `"${shown}" does not exist. Check the path.`, { command: shown });
  }
  if (st.isDirectory()) throw new MailroomError(COMMAND_INVALID, `"${shown}" is a folder, not a program. Point at the executable inside it.`, { command: shown });
  try {
    fs.accessSync(p, fs.constants.X_OK);
  } catch {
    throw new MailroomError(COMMAND_INVALID, `"${shown}" is not executable. Run chmod +x on it, or start it through its interpreter (command "node", args ["${shown}"]).`, { command: shown });
  }
  return p;
}
