import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../../helpers/owner';

describe("the house rule: only electron/main and electron/preload import 'electron'", () => {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const code = "import { app } from 'electron';\nexport const name = app.getName();\n";

  it('fails an electron import in the core, the renderer and shared', async () => {
    for (const file of ['electron/core/domains/vault/x.ts', 'renderer/src/x.tsx', 'shared/x.ts']) {
      const [r] = await eslint.lintText(code, { filePath: `${REPO_ROOT}/${file}` });
      expect(r.messages.map((m) => m.ruleId), file).toContain('no-restricted-imports');
    }
  });

  it('allows it in electron/main and electron/preload', async () => {
    for (const file of ['electron/main/x.ts', 'electron/preload/x.ts']) {
      const [r] = await eslint.lintText(code, { filePath: `${REPO_ROOT}/${file}` });
      expect(r.messages.map((m) => m.ruleId), file).not.toContain('no-restricted-imports');
    }
  });
});
