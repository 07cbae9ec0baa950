import { Marked, type Tokens, type TokenizerAndRendererExtension } from 'marked';
import type { ResolvedLink } from '../../../shared/contract/vault';
import { escapeHtml, sanitizeHtml } from '../pages/sessions/markdown';

/** The in-app address of a note (the Vault page reads `path` from the hash). */
export const noteHref = (path: string) => `#/vault?path=${encodeURIComponent(path)}`;

const INTERNAL = /^#\/vault\?path=[^"'<>\s]+$/;
const CLASSES = new Set(['wikilink', 'wikilink-missing']);

interface WikiToken extends Tokens.Generic {
  type: 'wikilink';
  raw: string;
  target: string;
  label: string;
}

/**
 * A vault note's markdown as safe HTML: marked (raw HTML shown as text), `[[Note]]` and
 * `[[Note|alias]]` as in-app links to the note the server resolved (or a "missing" marker), then
 * the allowlist sanitizer — nothing from the note can add script, style or event attributes.
 */
export function renderNote(markdown: string, links: ResolvedLink[]): string {
  const resolved = new Map(links.map((l) => [l.target, l.path]));
  const wikilink: TokenizerAndRendererExtension = {
    name: 'wikilink',
    level: 'inline',
    start: (src: string) => {
      const i = src.indexOf('[[');
      return i < 0 ? undefined : i > 0 && src[i - 1] === '!' ? i - 1 : i;
    },
    tokenizer(src: string): WikiToken | undefined {
      const m = /^!?\[\[([^\]|\n]+)(?:\|([^\]\n]*))?\]\]/.exec(src);
      if (!m) return undefined;
      const [raw, link = '', label] = m;
      const target = link.trim();
      return { type: 'wikilink', raw, target, label: (label ?? link).trim() || target };
    },
    renderer(token) {
      const t = token as WikiToken;
      const path = resolved.get(t.target);
      const label = escapeHtml(t.label);
      if (!path) return `<span class="wikilink wikilink-missing" title="${escapeHtml(`No note named “${t.target}” in the vault`)}">${label}</span>`;
      return `<a class="wikilink" href="${escapeHtml(noteHref(path))}" title="${escapeHtml(path)}">${label}</a>`;
    },
  };
  const md = new Marked({ gfm: true, breaks: false, async: false });
  md.use({ extensions: [wikilink], renderer: { html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text) } });
  return sanitizeHtml(md.parse(markdown) as string, { internalHref: (h) => INTERNAL.test(h), classes: CLASSES });
}
