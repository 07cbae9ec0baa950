import { spawn } from 'node:child_process';

export interface OpenResult {
  opened: boolean;
  /** The program that was asked to open the link. */
  command?: string;
  /** Why nothing opened (no browser program, it failed …). */
  why?: string;
}

/** The program that opens a link in the default browser here: MAILROOM_BROWSER, else the platform's opener. */
export function browserCommand(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): [string, ...string[]] {
  if (env.MAILROOM_BROWSER) return [env.MAILROOM_BROWSER];
  if (platform === 'darwin') return ['open'];
  // `start` is a cmd.exe built-in (it needs a shell); this opens the default browser without one.
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler'];
  return ['xdg-open'];
}

/**
 * Opens `url` in the default browser with an argv array (never a shell). Resolves once the opener
 * has exited (or is still running after `settleMs`, as a browser started directly is).
 */
export function openInBrowser(url: string, opts: { env?: NodeJS.ProcessEnv; settleMs?: number } = {}): Promise<OpenResult> {
  const [cmd, ...pre] = browserCommand(opts.env ?? process.env);
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: OpenResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(cmd, [...pre, url], { stdio: 'ignore', detached: true, shell: false, windowsHide: true });
    } catch (e) {
      return resolve({ opened: false, command: cmd, why: (e as Error).message });
    }
    const timer = setTimeout(() => {
      child.unref();
      finish({ opened: true, command: cmd });
    }, opts.settleMs ?? 5_000);
    child.once('error', (e: NodeJS.ErrnoException) => finish({ opened: false, command: cmd, why: e.code === 'ENOENT' ? `${cmd} is not installed` : e.message }));
    child.once('exit', (code) => finish(code === 0 ? { opened: true, command: cmd } : { opened: false, command: cmd, why: `${cmd} exited with code ${code} (no browser to open?)` }));
  });
}
