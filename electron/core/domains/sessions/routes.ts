import { parseWith } from '../../kernel/tool';
import type { RouteDef } from '../../kernel/types';
import { implement } from '../../kernel/route';
import { sessionRoutes as R, CreateTaskBody, LinkBody, SendMessageBody, StatusBody } from '../../../../shared/contract/sessions';
import type { SessionService } from './service';

/** REST for the renderer and the CLI (`mailroom session …`, `mailroom send`). */
export function sessionRoutes(svc: SessionService): RouteDef[] {
  return [
    implement(R.list, () => svc.list()),
    implement(R.create, (req) => {
      const b = parseWith(CreateTaskBody, req.body, 'session');
      return svc.createSession({ name: b.name, workingDir: b.working_dir, peer: b.peer });
    }),
    implement(R.get, (req) => svc.get(req.params.id)),
    implement(R.remove, (req) => {
      const r = svc.removeSession(req.params.id);
      return { removed: r.task.id, ...r.uninstall };
    }),
    implement(R.setStatus, (req) => svc.setStatus(req.params.id, parseWith(StatusBody, req.body, 'status').status)),
    implement(R.done, (req) => svc.setStatus(req.params.id, 'done')),
    // The hook's "this session is alive" ping: queued → running, never back from done.
    implement(R.touch, (req) => {
      svc.touch(req.params.id);
      return svc.get(req.params.id);
    }),
    implement(R.link, (req) => svc.link(req.params.id, parseWith(LinkBody, req.body, 'peer link').peer)),
    implement(R.messages, (req) => svc.store.timeline(req.params.id, req.query.limit)),
    implement(R.send, (req) => {
      const b = parseWith(SendMessageBody, req.body, 'message');
      return svc.send(req.params.id, b.body, b.priority, b.from ? { kind: 'task', id: b.from } : { kind: 'user' });
    }),
  ];
}
