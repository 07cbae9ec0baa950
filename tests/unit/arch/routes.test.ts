import { afterAll, describe, expect, it } from 'vitest';
import { createCore, resolveConfig, type Core } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/kernel/log';
import { routes, type RouteSpec } from '../../../shared/contract';
import { TOUCH_ROUTE } from '../../../electron/core/domains/sessions/hook';
import { REPO_ROOT, tempDir } from '../../helpers/owner';

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const table = (): RouteSpec[] => Object.values(routes).flatMap((domain) => Object.values(domain) as RouteSpec[]);

/** Every REST route is defined once in shared/contract and served by the owner: neither side may add one alone. */
describe('the route table and the owner', () => {
  let core: Core | undefined;
  afterAll(async () => core?.stop());

  it('serve the same set of routes (method + path)', async () => {
    core = await createCore(resolveConfig({ dataDir: tempDir(), vault: tempDir('mailroom-vault-'), env: {}, appRoot: REPO_ROOT, port: 0 }), { log: silentLogger() });
    const served = core.routes.map(key);
    const defined = table().map(key);
    expect(new Set(served).size, 'a route served twice').toBe(served.length);
    expect(new Set(defined).size, 'a route defined twice in the table').toBe(defined.length);
    expect(served.filter((r) => !defined.includes(r)), 'served but not in shared/contract').toEqual([]);
    expect(defined.filter((r) => !served.includes(r)), 'in shared/contract but not served').toEqual([]);
    expect(served.length).toBeGreaterThan(100);
  });

  it("names the session hook's route (kept zod-free for speed) as the table does", () => {
    expect(TOUCH_ROUTE).toEqual({ method: routes.sessions.touch.method, path: routes.sessions.touch.path });
  });

  it('names every query parameter a route reads in its schema (query keys are typed for callers)', () => {
    for (const spec of table()) {
      if (!spec.query) continue;
      // A query schema is an object schema: callers see its keys.
      expect(typeof (spec.query as unknown as { shape?: unknown }).shape, key(spec)).toBe('object');
    }
  });
});
