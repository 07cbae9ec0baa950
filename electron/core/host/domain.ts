import { z } from 'zod';
import { defineTool } from '../kernel/tool';
import type { CoreContext, Domain } from '../kernel/types';
import { coreRoutes as R, type InfoDto, type StatusDto } from '../../../shared/contract';
import { implement } from '../kernel/route';
import { connectClaudeDesktop, connectSnippet } from './connect';
import { settingsRoutes, type SettingsDeps } from './settings';

interface AppDeps extends SettingsDeps {
  counts(): Record<string, number>;
  port(): number;
  startedAt: number;
  /** The vault's background index, when there is a vault. */
  indexStatus?(): StatusDto['index'];
  /** The inbox's folder profiles (built in the background after indexing). */
  profilesStatus?(): StatusDto['profiles'];
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
    ...(deps.indexStatus ? { index: pick(deps.indexStatus()) } : {}),
  });
  const pick = (s: StatusDto['index']) => ({ state: s.state, done: s.done, total: s.total });
  const status = (): StatusDto => ({ index: deps.indexStatus?.() ?? { state: 'ready', done: 0, total: 0 }, ...(deps.profilesStatus ? { profiles: deps.profilesStatus() } : {}) });
  const mailroomInfo = defineTool({
    name: 'mailroom_info',
    title: 'Mailroom info',
    description: 'Version, vault path, data dir, item counts, owner pid and vault index progress (index: { state, done, total }) of this Mailroom.',
    annotations: { readOnlyHint: true },
    input: z.object({}).strict(),
    output: z.object({
      version: z.string(),
      vault: z.string(),
      data_dir: z.string(),
      owner_pid: z.number().int(),
      port: z.number().int(),
      counts: z.record(z.string(), z.number()),
      index: z.object({ state: z.enum(['starting', 'indexing', 'ready', 'failed']), done: z.number().int(), total: z.number().int() }).optional(),
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
      implement(R.status, () => status()),
      ...settingsRoutes(ctx, deps),
      implement(R.badges, () => ctx.platform.badges()),
      implement(R.connect, () => connectSnippet(config)),
      implement(R.connectClaudeDesktop, () => {
        const r = connectClaudeDesktop(config);
        return { file: r.file, backup: r.backup ?? null, changed: r.changed };
      }),
    ],
  };
}
