import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/owner';

describe('installing Mailroom', () => {
  it('npm commands in the project print no warning about its .npmrc', () => {
    const r = spawnSync('npm', ['config', 'get', 'audit'], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'warn' } });
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/Unknown project config/);
  });

  it("never runs onnxruntime-node's download script (CUDA), and its CPU binaries ship in the package", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
    expect(pkg.allowScripts['onnxruntime-node']).toBe(false);
    const bin = path.join(REPO_ROOT, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6', `${process.platform}`, process.arch);
    expect(fs.readdirSync(bin).some((f) => f.startsWith('onnxruntime_binding'))).toBe(true);
  });
});
