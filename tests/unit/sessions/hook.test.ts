import { describe, expect, it } from 'vitest';
import { hookOutput, runHook, type HookIo } from '../../../electron/core/domains/sessions/hook';
import { SessionService } from '../../../electron/core/domains/sessions/service';
import { tempDir } from '../../helpers/owner';
import { mailboxContext } from './context';

function io(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: HookIo = { out: (t) => out.push(t), err: (t) => err.push(t), env };
  return { value, out, err };
}

const postToolUse = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'PostToolUse', tool_name: 'Task', tool_input: {}, tool_response: {}, ...extra });

describe('the inbox-status hook', () => {
  it('says nothing when the inbox is empty, and prompts Claude when messages wait', async () => {
    const { ctx, dataDir } = mailboxContext();
    const svc = new SessionService(ctx);
    const t = svc.createSession({ name: 's', workingDir: tempDir() });
    const quiet = io();
    expect(await runHook(['hook', 'inbox-status', '--task', t.id, '--data-dir', dataDir], postToolUse(), quiet.value)).toBe(0);
    expect(quiet.out).toEqual([]);
    // Running the hook is a sign of life.
    expect(svc.get(t.id).status).toBe('running');

    svc.send(t.id, 'a', 'high', { kind: 'user' });
    svc.send(t.id, 'b', undefined, { kind: 'user' });
    const loud = io();
    expect(await runHook(['hook', 'inbox-status', '--task', t.id, '--data-dir', dataDir], postToolUse(), loud.value)).toBe(0);
    const out = JSON.parse(loud.out.join(''));
    // Context only: `decision: "block"` makes Claude Code show a "hook blocking error".
    expect(out.decision).toBeUndefined();
    expect(out.reason).toBeUndefined();
    expect(out.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(out.hookSpecificOutput.additionalContext).toContain('Inbox has 2 pending messages — call check_inbox now.');
    expect(out.hookSpecificOutput.additionalContext).toContain('1 high priority');
  });

  it('is silent for unknown sessions and missing data dirs, and never exits 2', async () => {
    const a = io();
    expect(await runHook(['inbox-status', '--task', 'nope', '--data-dir', tempDir()], '', a.value)).toBe(0);
    expect(a.out).toEqual([]);
    const b = io();
    expect(await runHook(['inbox-status'], '', b.value)).toBe(1);
    expect(b.err.join('')).toContain('usage: mailroom hook inbox-status --task');
  });

  it('never blocks a prompt: on UserPromptSubmit it only adds context', () => {
    expect(hookOutput('UserPromptSubmit', 't', { pending: 1, high: 0 })).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: expect.stringContaining('Inbox has 1 pending message —') },
    });
    expect(hookOutput('PostToolUse', 't', { pending: 0, high: 0 })).toBeUndefined();
  });
});
