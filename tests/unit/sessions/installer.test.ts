import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installMailbox, uninstallMailbox, BLOCK_START, BLOCK_END, hookCommand } from '../../../electron/core/domains/sessions/installer';
import { resolveConfig } from '../../../electron/core/host/config';
import { REPO_ROOT, tempDir, writeFiles } from '../../helpers/owner';

const config = resolveConfig({ dataDir: tempDir('mailroom-data-'), vault: tempDir('mailroom-vault-'), env: {}, appRoot: REPO_ROOT });

// A project that already has its own Claude setup, with formatting our JSON writer would not produce.
const ORIGINAL: Record<string, string> = {
  'CLAUDE.md': '# My project\n\nUse pnpm. Never touch `legacy/`.', // no trailing newline on purpose
  '.claude/settings.json': '{"permissions":{"allow":["Bash(npm test)"]},\n  "hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}],\n  "Stop": []}}',
  '.mcp.json': '{\n    "mcpServers": {\n        "github": {"command": "gh-mcp", "args": []}\n    }\n}\n',
};

function snapshot(dir: string): Record<string, string | null> {
  const files = ['CLAUDE.md', '.claude/settings.json', '.mcp.json'];
  return Object.fromEntries(files.map((f) => [f, fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : null]));
}

const read = (dir: string, f: string) => fs.readFileSync(path.join(dir, f), 'utf8');

describe('installing the mailbox into a working folder', () => {
  it('merges into existing CLAUDE.md, settings and .mcp.json, then restores the original bytes', () => {
    const dir = tempDir('mailroom-wd-');
    writeFiles(dir, ORIGINAL);
    const before = snapshot(dir);
    const record = installMailbox({ sessionId: 'abc123', name: 'backend', dir, config });

    const md = read(dir, 'CLAUDE.md');
    expect(md.startsWith(ORIGINAL['CLAUDE.md'])).toBe(true);
    expect(md).toContain(BLOCK_START);
    expect(md).toContain(BLOCK_END);
    expect(md).toContain('mcp__mailroom__check_inbox');
    expect(md).toContain('`abc123`');

    const settings = JSON.parse(read(dir, '.claude/settings.json'));
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(settings.hooks.Stop).toEqual([]);
    expect(settings.hooks.PostToolUse).toHaveLength(2);
    expect(settings.hooks.PostToolUse[0]).toEqual({ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write' }] });
    const ours = settings.hooks.PostToolUse[1];
    expect(ours.matcher).toBe('*');
    expect(ours.hooks[0].type).toBe('command');
    expect(ours.hooks[0].command).toBe(hookCommand({ sessionId: 'abc123', config }));
    expect(ours.hooks[0].command).toContain(`${process.execPath} ${path.join(REPO_ROOT, 'bin', 'mailroom.mjs')} hook inbox-status --task abc123 --data-dir`);

    const mcp = JSON.parse(read(dir, '.mcp.json'));
    expect(mcp.mcpServers.github).toEqual({ command: 'gh-mcp', args: [] });
    expect(mcp.mcpServers.mailroom).toMatchObject({
      type: 'stdio',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'bin', 'mailroom.mjs'), 'mcp'],
      env: { MAILROOM_TASK_ID: 'abc123', MAILROOM_DATA_DIR: config.dataDir },
    });

    const r = uninstallMailbox(record);
    expect(r.restored.sort()).toEqual(['.claude/settings.json', '.mcp.json', 'CLAUDE.md']);
    expect(snapshot(dir)).toEqual(before);
    expect(fs.readdirSync(dir).sort()).toEqual(['.claude', '.mcp.json', 'CLAUDE.md']);
  });

  it('creates the three files in an empty folder and takes them (and .claude/) away again', () => {
    const dir = tempDir('mailroom-wd-');
    const record = installMailbox({ sessionId: 'x1', name: 'fresh', dir, config });
    expect(fs.readdirSync(dir).sort()).toEqual(['.claude', '.mcp.json', 'CLAUDE.md']);
    uninstallMailbox(record);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('when the person edited the files meanwhile, takes out only its own part', () => {
    const dir = tempDir('mailroom-wd-');
    writeFiles(dir, ORIGINAL);
    const record = installMailbox({ sessionId: 'abc123', name: 'backend', dir, config });
    fs.appendFileSync(path.join(dir, 'CLAUDE.md'), '\n## Added later\nKeep me.\n');
    const settings = JSON.parse(read(dir, '.claude/settings.json'));
    settings.model = 'opus';
    fs.writeFileSync(path.join(dir, '.claude/settings.json'), JSON.stringify(settings));
    const mcp = JSON.parse(read(dir, '.mcp.json'));
    mcp.mcpServers.other = { command: 'other' };
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify(mcp));

    const r = uninstallMailbox(record);
    expect(r.merged.sort()).toEqual(['.claude/settings.json', '.mcp.json', 'CLAUDE.md']);
    const md = read(dir, 'CLAUDE.md');
    expect(md).toBe(ORIGINAL['CLAUDE.md'] + '\n## Added later\nKeep me.\n');
    const s = JSON.parse(read(dir, '.claude/settings.json'));
    expect(s.model).toBe('opus');
    expect(s.hooks.PostToolUse).toEqual([{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write' }] }]);
    const m = JSON.parse(read(dir, '.mcp.json'));
    expect(Object.keys(m.mcpServers).sort()).toEqual(['github', 'other']);
  });

  it('refuses a folder whose settings are not valid JSON, and changes nothing', () => {
    const dir = tempDir('mailroom-wd-');
    writeFiles(dir, { ...ORIGINAL, '.claude/settings.json': '{ "hooks": ' });
    const before = snapshot(dir);
    expect(() => installMailbox({ sessionId: 'abc', name: 'n', dir, config })).toThrow(/settings\.json is not valid JSON.*nothing was changed/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('quotes paths with spaces in the hook command', () => {
    const spaced = { ...config, dataDir: '/tmp/my data dir' };
    expect(hookCommand({ sessionId: 't1', config: spaced })).toMatch(/--data-dir "\/tmp\/my data dir"$/);
  });
});
