/**
 * "Nothing leaves your machine": onnxruntime's Microsoft telemetry (a device id and an event
 * queue under ~/.cache/Microsoft/DeveloperTools/.onnxruntime/, uploaded to a collector) is off
 * before the first session is created. A real child process with HOME pointed at an empty
 * folder loads the shipped models through our nlp code and runs an inference.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../../helpers/owner';

const run = promisify(execFile);

function walk(root: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push(path.relative(root, p));
      if (e.isDirectory()) visit(p);
    }
  };
  visit(root);
  return out;
}

describe('onnxruntime telemetry', () => {
  it('running the models writes nothing under HOME (no ~/.cache/Microsoft/DeveloperTools/.onnxruntime)', async () => {
    const home = tempDir('mailroom-home-');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('ORT_') && !k.startsWith('XDG_')) env[k] = v;
    Object.assign(env, { HOME: home, USERPROFILE: home });
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'tests/integration/app/ort-child.ts'), path.join(REPO_ROOT, 'models')], {
      cwd: REPO_ROOT,
      env,
      timeout: 60_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as { intent: string; entities: number };
    expect(out.intent).toBe('SAVE_FACT');
    expect(fs.existsSync(path.join(home, '.cache', 'Microsoft', 'DeveloperTools', '.onnxruntime'))).toBe(false);
    // tsx may keep its own cache elsewhere; nothing of Microsoft's may appear.
    expect(walk(home).filter((p) => /Microsoft|onnxruntime/i.test(p))).toEqual([]);
  });
});
