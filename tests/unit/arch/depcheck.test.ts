import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { REPO_ROOT, tempDir } from '../../helpers/owner';

// The dependency rule (`npm run depcheck`, part of `npm test`), run on small trees laid out like
// the repository: each deliberate break must be reported under its rule.
const config = createRequire(import.meta.url)(path.join(REPO_ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = tempDir('mailroom-depcheck-');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  const roots = [...new Set(Object.keys(files).map((f) => f.split('/')[0] ?? f))];
  const r = await cruise(roots, { ruleSet: { forbidden: config.forbidden }, validate: true, baseDir: dir, tsPreCompilationDeps: true }, { extensions: ['.ts', '.tsx'] });
  const out = r.output as ICruiseResult;
  return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('the dependency rule', () => {
  it('passes the layering entry → host → domains/transports → kernel', async () => {
    expect(
      await violations({
        'electron/core/kernel/errors.ts': 'export const e = 1;\n',
        'electron/core/domains/vault/store.ts': "import { e } from '../../kernel/errors';\nexport const s = e;\n",
        'electron/core/domains/vault/index.ts': "export { s } from './store';\n",
        'electron/core/domains/inbox/index.ts': "import { s } from '../vault';\nexport const i = s;\n",
        'electron/core/host/core.ts': "import { i } from '../domains/inbox';\nexport const c = i;\n",
        'electron/core/entry/cli.ts': "import { c } from '../host/core';\nexport const x = c;\n",
      }),
    ).toEqual([]);
  });

  it('fails an upward import (kernel → host)', async () => {
    const v = await violations({
      'electron/core/host/config.ts': 'export interface Config { dir: string }\n',
      'electron/core/kernel/types.ts': "import type { Config } from '../host/config';\nexport type C = Config;\n",
    });
    expect(v).toEqual(['kernel-imports-nothing-above: electron/core/kernel/types.ts → electron/core/host/config.ts']);
  });

  it('fails a domain importing an entry point (domain cli → entry runtime)', async () => {
    const v = await violations({
      'electron/core/entry/runtime.ts': 'export interface Rt { out(t: string): void }\n',
      'electron/core/domains/mail/cli.ts': "import type { Rt } from '../../entry/runtime';\nexport const f = (r: Rt) => r.out('x');\n",
    });
    expect(v).toEqual(['domains-not-upward: electron/core/domains/mail/cli.ts → electron/core/entry/runtime.ts']);
  });

  it('fails an import cycle, type-only ones included', async () => {
    const v = await violations({
      'electron/core/domains/router/types.ts': "import type { Condition } from './conditions';\nexport interface Rule { c: Condition }\n",
      'electron/core/domains/router/conditions.ts': "import type { Rule } from './types';\nexport type Condition = { rule?: Rule };\n",
    });
    expect(v.every((x) => x.startsWith('no-cycles: '))).toBe(true);
    expect(v.length).toBeGreaterThan(0);
  });

  it("fails reaching into another domain past its index.ts", async () => {
    const v = await violations({
      'electron/core/domains/nlp/contract.ts': 'export interface Nlp { x: number }\n',
      'electron/core/domains/nlp/index.ts': "export * from './contract';\n",
      'electron/core/domains/mail/triage.ts': "import type { Nlp } from '../nlp/contract';\nexport type N = Nlp;\n",
    });
    expect(v).toEqual(['domain-public-face: electron/core/domains/mail/triage.ts → electron/core/domains/nlp/contract.ts']);
  });

  it('fails shared/ importing anything but zod, and the core importing electron', async () => {
    const v = await violations({
      'shared/api.ts': "import fs from 'node:fs';\nexport const f = fs;\n",
      'electron/core/kernel/x.ts': "import { app } from 'electron';\nexport const a = app;\n",
    });
    expect(v.map((x) => x.split(':')[0]).sort()).toEqual(['only-main-and-preload-import-electron', 'shared-is-pure']);
  });
});
