import { z } from 'zod';
import { parseWith } from '../../kernel/tool';
import type { RouteDef } from '../../kernel/types';
import type { MailboxService } from './service';

const CreateBody = z.object({
  name: z.string().min(1, 'a session needs a name'),
  working_dir: z.string().min(1, 'a session needs a working folder'),
  peer: z.string().min(1).optional(),
});
const SendBody = z.object({ body: z.unknown(), priority: z.unknown().optional(), from: z.string().min(1).optional() });
const StatusBody = z.object({ status: z.enum(['queued', 'running', 'done']) });
const LinkBody = z.object({ peer: z.string().min(1) });

/** REST for the renderer and the CLI (`mailroom session …`, `mailroom send`). */
export function mailboxRoutes(svc: MailboxService): RouteDef[] {
  return [
    { method: 'GET', path: '/api/sessions', handler: () => svc.list() },
    {
      method: 'POST',
      path: '/api/sessions',
      handler: (req) => {
        const b = parseWith(CreateBody, req.body, 'session');
        return svc.createSession({ name: b.name, workingDir: b.working_dir, peer: b.peer });
      },
    },
    { method: 'GET', path: '/api/sessions/:id', handler: (req) => svc.get(req.params.id) },
    {
      method: 'DELETE',
      path: '/api/sessions/:id',
      handler: (req) => {
        const r = svc.removeSession(req.params.id);
        return { removed: r.task.id, ...r.uninstall };
      },
    },
    {
      method: 'POST',
      path: '/api/sessions/:id/status',
      handler: (req) => svc.setStatus(req.params.id, parseWith(StatusBody, req.body, 'status').status),
    },
    { method: 'POST', path: '/api/sessions/:id/done', handler: (req) => svc.setStatus(req.params.id, 'done') },
    {
      // The hook's "this session is alive" ping: queued → running, never back from done.
      method: 'POST',
      path: '/api/sessions/:id/touch',
      handler: (req) => {
        svc.touch(req.params.id);
        return svc.get(req.params.id);
      },
    },
    {
      method: 'POST',
      path: '/api/sessions/:id/peers',
      handler: (req) => svc.link(req.params.id, parseWith(LinkBody, req.body, 'peer link').peer),
    },
    {
      method: 'GET',
      path: '/api/sessions/:id/messages',
      handler: (req) => {
        const limit = Number(req.query.get('limit') ?? 500);
        return svc.store.timeline(req.params.id, Number.isInteger(limit) && limit > 0 ? Math.min(limit, 5_000) : 500);
      },
    },
    {
      method: 'POST',
      path: '/api/sessions/:id/messages',
      handler: (req) => {
        const b = parseWith(SendBody, req.body, 'message');
        return svc.send(req.params.id, b.body, b.priority, b.from ? { kind: 'task', id: b.from } : { kind: 'user' });
      },
    },
  ];
}
