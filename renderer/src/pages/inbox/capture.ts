import { call, routes } from '../../api';

const TEXT = /\.(md|markdown|txt|text|csv|json|ya?ml|html?|org)$/i;

function base64(buf: ArrayBuffer): string {
  let s = '';
  const bytes = new Uint8Array(buf);
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Dropped files or text → POST /api/inbox/capture (the same path as brain_inbox_save). */
export async function captureDrop(dt: DataTransfer): Promise<number> {
  const files = [...dt.files];
  if (!files.length) {
    const text = dt.getData('text/plain');
    if (!text.trim()) return 0;
    await call(routes.inbox.capture, { body: { text } });
    return 1;
  }
  const payload = await Promise.all(
    files.map(async (f) =>
      TEXT.test(f.name) ? { name: f.name, content: await f.text() } : { name: f.name, content: base64(await f.arrayBuffer()), encoding: 'base64' as const },
    ),
  );
  const r = await call(routes.inbox.capture, { body: { files: payload } });
  return r.saved.length;
}
