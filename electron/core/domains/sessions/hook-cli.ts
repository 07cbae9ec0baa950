// Entry of out/cli/hook.mjs (`mailroom hook …`, dispatched by bin/mailroom.mjs): kept tiny so
// Claude Code's PostToolUse hook stays fast. Reads the hook JSON from stdin, then exits.
import { runHook } from './hook';

function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    let data = '';
    // Claude Code closes stdin after writing; a caller that never does must not hang the hook.
    const timer = setTimeout(() => finish(), 2_000);
    const finish = () => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(data);
    };
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d: string) => (data += d));
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}

const code = await runHook(process.argv.slice(2), await readStdin());
// Exit once stdout is flushed (pipes can be asynchronous, e.g. on Windows); exiting explicitly
// because a caller that keeps stdin open would otherwise keep this process alive.
process.stdout.write('', () => process.exit(code));
