import fs from 'node:fs';
import path from 'node:path';
import type { CoreContext, Domain } from '../common/types';
import { HubEvent } from '../../../shared/api';
import { parseWith } from '../common/tool';
import { listInbox, saveToInbox, SaveInput, type InboxListItem, type SaveResult } from './capture';
import { brainInboxSaveTool } from './tools/brain_inbox_save';

export { containedPath, writeNewFileAtomic, slugify } from './files';
export type { SaveInput, SaveResult, InboxListItem } from './capture';

export interface InboxApi {
  save(input: SaveInput): SaveResult;
  list(): InboxListItem[];
}

/**
 * The inbox's capture side: everything that arrives (tray capture, drag-and-drop, Claude over
 * MCP, mail's "Save to inbox") lands in `inbox/` through `save`. Analysis, review and filing
 * (ADR-007's analyze → approve → execute) build on this.
 */
export function createInbox(ctx: CoreContext): Domain & InboxApi {
  const vaultDir = ctx.config.vaultDir;
  const announce = (reason: string) => {
    const count = listInbox(vaultDir).length;
    ctx.hub.broadcast(HubEvent.inboxChanged, reason, count);
    ctx.platform.setBadge('inbox', count);
  };
  const api: InboxApi = {
    save(input) {
      fs.mkdirSync(path.join(vaultDir, 'inbox'), { recursive: true });
      const r = saveToInbox(vaultDir, input);
      ctx.log.info('saved to inbox', { path: r.path, filed: r.filed });
      announce(r.filed ? 'filed' : 'saved');
      return r;
    },
    list: () => listInbox(vaultDir),
  };
  return {
    name: 'inbox',
    ...api,
    tools: [brainInboxSaveTool(api)],
    routes: [
      { method: 'GET', path: '/api/inbox', handler: () => ({ items: api.list() }) },
      { method: 'POST', path: '/api/inbox/capture', handler: (req) => api.save(parseWith(SaveInput, req.body, 'capture')) },
    ],
    counts: () => ({ inbox_items: api.list().length }),
    start() {
      ctx.platform.setBadge('inbox', api.list().length);
    },
  };
}
