import { z } from 'zod';
import { defineTool } from '../kernel/tool';
import type { CoreContext, Domain } from '../kernel/types';
import { coreRoutes as R, type InfoDto } from '../../../shared/contract';
import { implement } from '../kernel/route';
import { connectClaudeDesktop, connectSnippet } from './connect';

interface AppDeps {
  counts(): Record<string, number>;
  port(): number;
  startedAt: number;
}

/** The app's own surface: health, info, and connecting Claude. */
export function createAppDomain(ctx: CoreContext, deps: AppDeps): Domain {
  const { config } = ctx;
  const info = (): InfoDto => ({
    version: config.version,
    vault: config.vaultDir,
    data_dir: config.dataDir,
    owner_pid: process.pid,
    port: deps.port(),
    counts: deps.counts(),
  });
  const mailroomInfo = defineTool({
    name: 'mailroom_info',
    title: 'Mailroom info',
    description: 'Version, vault path, data dir, item counts and owner pid of this Mailroom.',
    annotations: { readOnlyHint: true },
    input: z.object({}).strict(),
    output: z.object({
      version: z.string(),
      vault: z.string(),
      data_dir: z.string(),
      owner_pid: z.number().int(),
      port: z.number().int(),
      counts: z.record(z.string(), z.number()),
    }),
    handler: () => info(),
  });
  return {
    name: 'app',
    tools: [mailroomInfo],
    routes: [
      implement(R.health, () => ({
        ok: true,
        version: config.version,
        vault: config.vaultDir,
        uptime_s: Math.round((Date.now() - deps.startedAt) / 1000),
      })),
      implement(R.info, () => info()),
      implement(R.badges, () => ctx.platform.badges()),
      implement(R.connect, () => connectSnippet(config)),
      implement(R.connectClaudeDesktop, () => {
        const r = connectClaudeDesktop(config);
        return { file: r.file, backup: r.backup ?? null, changed: r.changed };
      }),
    ],
  };
}
