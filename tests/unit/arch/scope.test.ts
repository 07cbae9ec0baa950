import { describe, expect, it } from 'vitest';
import { createScope } from '../../../electron/core/kernel/scope';
import { createCoreContext } from '../../../electron/core/host/context';
import { resolveConfig } from '../../../electron/core/host/config';
import { silentLogger } from '../../../electron/core/kernel/log';
import { REPO_ROOT, tempDir } from '../../helpers/owner';

const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('a disposal scope', () => {
  it('clears its timers, aborts its signal and runs clean-ups in reverse, children first', async () => {
    const order: string[] = [];
    const scope = createScope('core');
    const before = timeouts();
    scope.setInterval(() => order.push('tick'), 60_000);
    scope.setTimeout(() => order.push('fired'), 60_000);
    scope.add(() => void order.push('first'));
    const child = scope.child('mail');
    child.add(() => void order.push('child'));
    scope.add(async () => void order.push('last'));
    expect(timeouts()).toBe(before + 2);
    await scope.dispose();
    expect(timeouts()).toBe(before);
    expect(scope.signal.aborted).toBe(true);
    expect(child.disposed).toBe(true);
    expect(order).toEqual(['last', 'child', 'first']);
    // Registering after dispose runs the clean-up at once instead of leaking it.
    const late = new Promise<void>((resolve) => scope.add(resolve));
    await expect(late).resolves.toBeUndefined();
  });

  it('keeps disposing when one clean-up throws, and reports it', async () => {
    const errors: string[] = [];
    const scope = createScope('core', (name, e) => errors.push(`${name}: ${String(e)}`));
    let ran = false;
    scope.add(() => void (ran = true));
    scope.add(() => {
      throw new Error('boom');
    });
    await scope.dispose();
    expect(ran).toBe(true);
    expect(errors).toEqual(['core: Error: boom']);
  });

  it("gives each domain its own scope, all ended by the context's close()", async () => {
    const config = resolveConfig({ dataDir: tempDir(), vault: tempDir(), env: {}, appRoot: REPO_ROOT });
    const built = createCoreContext(config, { broadcast() {} }, { log: silentLogger() });
    const a = built.scopeFor('vault');
    const b = built.scopeFor('mail');
    expect(a.scope).not.toBe(b.scope);
    expect(a.stateDb).toBe(b.stateDb);
    const before = timeouts();
    a.scope.setInterval(() => undefined, 60_000);
    b.scope.setTimeout(() => undefined, 60_000);
    await built.close();
    expect(timeouts()).toBe(before);
    expect(a.scope.disposed && b.scope.disposed).toBe(true);
    expect(built.ctx.stateDb.open).toBe(false);
  });
});
