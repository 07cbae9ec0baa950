import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig } from '../electron/core/host/config';
import { keyFileSecretBox } from '../electron/core/host/secrets';
import { silentLogger } from '../electron/core/kernel/log';
import { openStateDb } from '../electron/core/kernel/db';
import { createRouter, type Router } from '../electron/core/domains/router';
import { percentile, ratio, round, type BenchRow } from './lib';
import { createCoreContext } from '../electron/core/host/context';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEST_SERVER = path.join(ROOT, 'tests', 'fixtures', 'mcp-test-server.mjs');
const N = 100;
const ADAPTERS = 3;

/** A router over a fresh state DB with 3 adapters (the project's stdio test server) and one route each. */
async function setup(): Promise<{ router: Router; close(): Promise<void>; spawnLog: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-router-'));
  const config = resolveConfig({ dataDir, vault: dataDir, port: 0, env: {}, appRoot: ROOT });
  const stateDb = openStateDb(dataDir);
  const { ctx } = createCoreContext(config, { broadcast() {} }, {
    log: silentLogger(),
    stateDb,
    platform: { kind: 'headless', notify() {}, setBadge() {}, badges: () => ({}), secrets: keyFileSecretBox(dataDir) },
  });
  const router = createRouter(ctx);
  const spawnLog = path.join(dataDir, 'spawns.txt');
  const s = router.service;
  for (let i = 0; i < ADAPTERS; i++) {
    const a = s.createAdapter({ name: `server ${i}`, command: process.execPath, args: [TEST_SERVER], env: [{ key: 'MCP_TEST_SPAWN_LOG', value: spawnLog }] });
    s.store.createRoute({
      name: `to ${i}`,
      enabled: true,
      priority: 0,
      condition: { field: 'tags', op: 'equals', value: `t${i}` },
      adapter_id: a.id,
      tool: 'create_note',
      mapper: 'template',
      mapping: { title: '{{ title }}', content: '{{ content }}', tags: '{{ tags }}', meta: { priority: 'normal', source: '{{ source | default("bench") }}' } },
      instructions: '',
      allow_fallback: false,
    });
  }
  return {
    router,
    spawnLog,
    async close() {
      await router.stop?.();
      stateDb.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const item = (i: number) => ({ title: `Item ${i}`, content: `Body of item ${i}`, tags: [`t${i % ADAPTERS}`], entities: [] });

export async function run(): Promise<BenchRow[]> {
  // Baseline: the same 100 distributions one after another (cold start included, as below).
  const seq = await setup();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const r = await seq.router.routeItem(item(i));
    if (r.status !== 'ok') throw new Error(`sequential distribution ${i} failed: ${r.error?.message}`);
  }
  const sequentialMs = performance.now() - t0;
  await seq.close();

  const con = await setup();
  const lat: number[] = [];
  const t1 = performance.now();
  const results = await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const s = performance.now();
      const r = await con.router.routeItem(item(i));
      lat.push(performance.now() - s);
      return r;
    }),
  );
  const concurrentMs = performance.now() - t1;
  const failed = results.filter((r) => r.status !== 'ok');
  if (failed.length) throw new Error(`${failed.length} concurrent distributions failed: ${failed[0].error?.message}`);
  const spawned = con.router.service.pool.spawnedTotal();
  const pidsStarted = fs.readFileSync(con.spawnLog, 'utf8').split('\n').filter(Boolean).length;
  await con.close();

  const concurrentS = round(concurrentMs / 1000, 3);
  return [
    {
      area: 'router',
      figure: `${N} concurrent distributions across ${ADAPTERS} adapters (cold start)`,
      value: concurrentS,
      unit: 's',
      baseline: round(sequentialMs / 1000, 3),
      baseline_label: `${N} sequential`,
      ratio: ratio(concurrentMs, sequentialMs),
      goal: '≤ 3 s (seed: < 30 s)',
      pass: concurrentS <= 3,
    },
    {
      area: 'router',
      figure: `server processes started for ${N} concurrent distributions`,
      value: pidsStarted,
      unit: 'processes',
      goal: `= ${ADAPTERS} (1 per adapter)`,
      pass: pidsStarted === ADAPTERS && spawned === ADAPTERS,
    },
    {
      area: 'router',
      figure: 'distribution latency p95 under 100-way concurrency',
      value: round(percentile(lat, 95), 1),
      unit: 'ms',
      baseline: round(sequentialMs / N, 1),
      baseline_label: 'mean sequential',
      ratio: ratio(percentile(lat, 95), sequentialMs / N),
    },
  ];
}
