import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const FIXTURES = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'tests', 'fixtures');

/**
 * The labelled sets of one group — `blind` (written without reading the code, studied from round 4
 * on) or `heldout` (never tuned on) — as the folders directly under `tests/fixtures/<group>/` that
 * `holds` accepts, sorted by name. A group that is absent has no sets.
 */
export function fixtureSets(group: 'blind' | 'heldout', holds: (dir: string) => boolean): string[] {
  const root = path.join(FIXTURES, group);
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .sort()
    .map((d) => path.join(root, d))
    .filter(holds);
}

/** One measured figure, printed beside a baseline measured in the same run. */
export interface BenchRow {
  area: string;
  figure: string;
  value: number;
  unit: string;
  baseline?: number;
  baseline_label?: string;
  ratio?: number;
  goal?: string;
  pass?: boolean;
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function ratio(value: number, baseline: number): number {
  return baseline > 0 ? round(value / baseline, 2) : NaN;
}

/** Times `fn` n times (after `warmup` runs), in milliseconds. */
export async function timeMany(n: number, fn: (i: number) => Promise<unknown> | unknown, warmup = 5): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

export function rssOfPid(pid: number): number {
  // Linux: VmRSS in kB.
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export function printTable(rows: BenchRow[]): void {
  const cols = ['area', 'figure', 'value', 'baseline', 'ratio', 'goal', 'ok'] as const;
  const cells = rows.map((r) => ({
    area: r.area,
    figure: r.figure,
    value: `${r.value} ${r.unit}`,
    baseline: r.baseline !== undefined ? `${r.baseline} ${r.unit}${r.baseline_label ? ` (${r.baseline_label})` : ''}` : '',
    ratio: r.ratio !== undefined ? `${r.ratio}×` : '',
    goal: r.goal ?? '',
    ok: r.pass === undefined ? '' : r.pass ? 'yes' : 'NO',
  }));
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...cells.map((x) => String(x[c]).length))]));
  const line = (x: Record<string, string>) => cols.map((c) => String(x[c]).padEnd(width[c])).join('  ');
  console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
  console.log(cols.map((c) => '-'.repeat(width[c])).join('  '));
  for (const c of cells) console.log(line(c));
}

/**
 * Starts the bundled headless owner on `vault` with `data` as its data dir (port 0), as the scale
 * probes do: resolves once it prints where it runs. OWNER_PROF=<dir> adds a CPU profile; `log`
 * appends the owner's stderr to a file (else it is dropped).
 */
export async function startProbeOwner(vault: string, data: string, opts: { env?: Record<string, string>; log?: string } = {}): Promise<{ child: ChildProcess; url: URL; token: string }> {
  const bin = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'bin', 'mailroom.mjs');
  const prof = process.env.OWNER_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.OWNER_PROF] : [];
  const child = spawn(process.execPath, [...prof, bin, 'start', '--headless', '--vault', vault, '--data-dir', data, '--port', '0'], {
    env: opts.env ?? (Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MAILROOM_'))) as Record<string, string>),
    stdio: ['ignore', 'pipe', opts.log ? fs.openSync(opts.log, 'a') : 'ignore'],
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the owner exited (${code}) before it was running`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /running at (\S+)/.exec(out);
      if (m) resolve(new URL(m[1]!));
    });
  });
  return { child, url, token: url.searchParams.get('token')! };
}
