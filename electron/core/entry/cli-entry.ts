import { main } from './cli';

main(process.argv.slice(2)).then(
  (code) => {
    // Long-running commands (start, mcp) keep the event loop alive themselves.
    if (code !== 0) process.exit(code);
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`mailroom: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
