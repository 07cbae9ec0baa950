import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir, writeFiles } from '../../helpers/owner';
import { openCore } from './crash-harness';

const RUNS = 50;
const CHILD = path.join(REPO_ROOT, 'node_modules', '.cache', 'mailroom-crash-test', 'child.mjs');

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

function allFiles(root: string, skipGit = true): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .map(String)
    .filter((f) => !(skipGit && f.split(path.sep)[0] === '.git') && fs.statSync(path.join(root, f)).isFile());
}

/** A vault with 16 inbox items (distinct bytes) and notes already sitting at some destinations. */
function makeTemplate(): { vault: string; items: Record<string, Buffer>; actions: Array<{ path: string; action: string; destination?: string }> } {
  const vault = tempDir('crash-template-');
  const files: Record<string, string> = { 'projects/atlas.md': '# Atlas\n', 'home/recipes/soup.md': '# Soup\n' };
  const actions: Array<{ path: string; action: string; destination?: string }> = [];
  for (let i = 0; i < 16; i++) {
    const rel = `inbox/item-${i}.md`;
    files[rel] = `# Item ${i}\n\n${crypto.randomBytes(2048).toString('base64')}\n`;
    if (i % 4 === 3) actions.push({ path: rel, action: 'delete' });
    else actions.push({ path: rel, action: 'move', destination: i % 2 ? 'projects/atlas.md' : `area-${i % 3}/` });
  }
  writeFiles(vault, files);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: vault });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: vault });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init'], { cwd: vault });
  const items = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]));
  return { vault, items, actions };
}

function runChild(dataDir: string, vault: string, actions: unknown, killAfterMs: number | undefined): Promise<{ finished: boolean; batchMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dataDir, vault, REPO_ROOT, JSON.stringify(actions)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let finished = false;
    let goAt = 0;
    let batchMs = 0;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready\n') && !out.includes('go-sent')) {
        out += 'go-sent';
        child.stdin.write('go\n');
        goAt = Date.now();
        if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
      if (out.includes('done\n') && !finished) {
        finished = true;
        batchMs = Date.now() - goAt;
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' || code === 0) resolve({ finished, batchMs });
      else reject(new Error(`child exited ${code}: ${err}`));
    });
  });
}

describe('crash safety of inbox_execute', () => {
  beforeAll(async () => {
    await build({
      entryPoints: [path.join(REPO_ROOT, 'tests/integration/inbox/crash-child.ts')],
      outfile: CHILD,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
  });

  it(`SIGKILL at points swept across a batch (${RUNS} runs): after restart every note exists exactly once with its bytes, and the vault is committed`, async () => {
    const t = makeTemplate();
    // How long an uninterrupted batch takes, so kills land before, during and after it.
    const probe = tempDir('crash-data-');
    const probeVault = tempDir('crash-vault-');
    fs.cpSync(t.vault, probeVault, { recursive: true });
    const probed = await runChild(probe, probeVault, t.actions, undefined);
    expect(probed.finished).toBe(true);
    // Kills sweep evenly from "go" to a little past the end of the batch (not at random), so
    // enough of them land inside it whatever the machine's speed.
    const span = Math.max(20, probed.batchMs * 1.2);

    let interrupted = 0;
    for (let run = 0; run < RUNS; run++) {
      const dataDir = tempDir('crash-data-');
      const vault = tempDir('crash-vault-');
      fs.cpSync(t.vault, vault, { recursive: true });
      await runChild(dataDir, vault, t.actions, Math.floor(((run + 0.5) / RUNS) * span));

      const stateFile = path.join(dataDir, 'state.db');
      if (fs.existsSync(stateFile)) {
        const db = new Database(stateFile);
        const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'inbox_batches'").get();
        if (hasTable && (db.prepare("SELECT count(*) AS n FROM inbox_batches WHERE status = 'running'").get() as { n: number }).n > 0) interrupted++;
        db.close();
      }
      // Opening the data dir again is the restart: it recovers interrupted batches.
      const core = await openCore(dataDir, vault, REPO_ROOT);
      const rows = core.db.prepare('SELECT status FROM inbox_batches').all() as Array<{ status: string }>;
      await core.close();
      expect(rows.every((r) => r.status === 'done'), `run ${run}: batches ${JSON.stringify(rows)}`).toBe(true);

      // Every original file exists exactly once (in the vault or the trash) with the same bytes.
      const seen = new Map<string, number>();
      for (const root of [vault, path.join(dataDir, 'trash')]) {
        for (const f of allFiles(root)) {
          const h = sha(fs.readFileSync(path.join(root, f)));
          seen.set(h, (seen.get(h) ?? 0) + 1);
          expect(path.basename(f).startsWith('.mailroom-tmp-'), `run ${run}: temp file left: ${f}`).toBe(false);
        }
      }
      for (const [rel, bytes] of Object.entries(t.items)) {
        expect(seen.get(sha(bytes)), `run ${run}: ${rel}`).toBe(1);
      }
      // Nothing Mailroom did is left uncommitted.
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: vault, encoding: 'utf8' }), `run ${run}`).toBe('');
    }
    // The kills really landed inside batches, not only before or after them.
    expect(interrupted).toBeGreaterThanOrEqual(5);
    // ~60 s on an idle 2-core machine; each run boots a child core, so a loaded machine needs room.
  }, 300_000);
});
