import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPO_ROOT, startTestOwner, tempDir, waitForHubEvent, type TestOwner } from '../../helpers/owner';
import type { SessionDto } from '../../../shared/contract/sessions';

/**
 * Claude Code's documented hook output for PostToolUse (code.claude.com/docs/en/hooks: the
 * common JSON fields, plus "PostToolUse decision control"). Strict: an unknown key fails.
 */
const PostToolUseOutput = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.literal('block').optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.object({ hookEventName: z.literal('PostToolUse'), additionalContext: z.string().optional() }).strict().optional(),
  })
  .strict()
  .refine((o) => o.decision !== 'block' || typeof o.reason === 'string', 'decision "block" needs a reason');

/** The PostToolUse input Claude Code writes on the hook's stdin. */
const hookInput = (cwd: string) =>
  JSON.stringify({
    session_id: 'abc123',
    transcript_path: path.join(cwd, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Task',
    tool_input: { description: 'Refactor', prompt: 'go' },
    tool_response: { content: [{ type: 'text', text: 'done' }] },
  });

/**
 * Runs a hook command exactly as Claude Code does: through the shell, in the project folder,
 * with the event JSON on stdin. (The shell is the point here: it is how the command is run.)
 */
function runLikeClaudeCode(command: string, cwd: string, stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env: { PATH: '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('hook did not finish in 10 s'));
    }, 10_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

describe('the PostToolUse hook, run the way Claude Code runs it', () => {
  let owner: TestOwner;
  beforeAll(async () => {
    expect(fs.existsSync(path.join(REPO_ROOT, 'out', 'cli', 'hook.mjs'))).toBe(true);
    owner = await startTestOwner();
  });
  afterAll(async () => owner?.close());

  it('is installed into .claude/settings.json, marks the session running, and surfaces pending messages in the documented format', async () => {
    const dir = tempDir('mailroom-project-');
    const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name: 'hooked', working_dir: dir })).body;
    const settings = JSON.parse(fs.readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    const entry = settings.hooks.PostToolUse.find((m: { hooks: Array<{ command: string }> }) => m.hooks[0].command.includes('inbox-status'));
    const command: string = entry.hooks[0].command;

    const hub = await owner.hub();
    const running = waitForHubEvent(hub, 'TaskUpdated', (x) => (x as SessionDto).id === t.id && (x as SessionDto).status === 'running');
    const empty = await runLikeClaudeCode(command, dir, hookInput(dir));
    expect(empty).toMatchObject({ code: 0, stdout: '' });
    await running; // the hook run is a sign of life, announced through the owner

    await hub.invoke('SendTaskMessage', t.id, 'please also update the changelog');
    await hub.invoke('SendTaskMessage', t.id, 'stop: the build is red', 'high');
    const r = await runLikeClaudeCode(command, dir, hookInput(dir));
    expect(r.code).toBe(0);
    const out = PostToolUseOutput.parse(JSON.parse(r.stdout));
    expect(out.decision).toBeUndefined(); // "block" reads as a "hook blocking error" in Claude Code
    expect(out.hookSpecificOutput?.additionalContext).toMatch(/^Inbox has 2 pending messages — call check_inbox now\./);
    expect(out.hookSpecificOutput?.additionalContext).toMatch(/2 messages are waiting \(1 high priority\).*mcp__mailroom__check_inbox/);
  });

  it('stays silent (exit 0, no output) once the session is removed, and when no Mailroom data exists', async () => {
    const dir = tempDir('mailroom-project-');
    const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name: 'gone', working_dir: dir })).body;
    const settings = JSON.parse(fs.readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    const command: string = settings.hooks.PostToolUse[0].hooks[0].command;
    await owner.api('DELETE', `/api/sessions/${t.id}`);
    expect(fs.existsSync(path.join(dir, '.claude'))).toBe(false);
    expect(await runLikeClaudeCode(command, dir, hookInput(dir))).toMatchObject({ code: 0, stdout: '' });
    const elsewhere = command.replace(/--data-dir .*$/, `--data-dir ${tempDir()}`);
    expect(await runLikeClaudeCode(elsewhere, dir, hookInput(dir))).toMatchObject({ code: 0, stdout: '' });
  });
});
