import { Marked, type Tokens } from 'marked';

/**
 * Message bodies are markdown written by people and by other agents: render them, then keep
 * only an allowlist of tags and attributes. Raw HTML in the markdown is shown as text, links
 * keep only http(s)/mailto targets and open outside the app.
 */
const ALLOWED_TAGS = new Set([
  'p', 'br', 'hr', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input', 'span',
]);
const ALLOWED_ATTRS: Record<string, Set<string>> = {
  a: new Set(['href', 'title']),
  ol: new Set(['start']),
  code: new Set(['class']),
  th: new Set(['align']),
  td: new Set(['align']),
  input: new Set(['type', 'checked', 'disabled']),
};

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const md = new Marked({ gfm: true, breaks: true, async: false });
md.use({ renderer: { html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text) } });

/** What a caller may keep beyond the defaults: in-app links (e.g. `#/vault?path=…`) and a few classes. */
export interface CleanOptions {
  /** Hrefs kept as in-app links (no target=_blank). */
  internalHref?: (href: string) => boolean;
  /** Class names kept on a/span. */
  classes?: ReadonlySet<string>;
}

function clean(node: Node, opts: CleanOptions = {}): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.ELEMENT_NODE) {
      const el = child as Element;
      const tag = el.tagName.toLowerCase();
      if (!ALLOWED_TAGS.has(tag)) {
        // Keep the text of unknown elements, drop the element (and scripts/styles entirely).
        if (tag === 'script' || tag === 'style' || tag === 'iframe' || tag === 'object') el.remove();
        else el.replaceWith(...[...el.childNodes].map((n) => n));
        continue;
      }
      for (const attr of [...el.attributes]) {
        const name = attr.name.toLowerCase();
        if (name === 'class' && (tag === 'a' || tag === 'span') && opts.classes) {
          const kept = attr.value.split(/\s+/).filter((c) => opts.classes!.has(c));
          if (kept.length) el.setAttribute('class', kept.join(' '));
          else el.removeAttribute('class');
          continue;
        }
        if (!ALLOWED_ATTRS[tag]?.has(name)) el.removeAttribute(attr.name);
      }
      if (tag === 'input' && el.getAttribute('type') !== 'checkbox') el.remove();
      if (tag === 'a') {
        const href = el.getAttribute('href') ?? '';
        if (opts.internalHref?.(href)) {
          clean(el, opts);
          continue;
        }
        if (!/^(https?:|mailto:)/i.test(href)) el.removeAttribute('href');
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
      }
      clean(el, opts);
    } else if (child.nodeType !== Node.TEXT_NODE) {
      child.parentNode?.removeChild(child);
    }
  }
}

/** Keeps only the allowlisted tags/attributes of `html` (parsed inertly with DOMParser). */
export function sanitizeHtml(html: string, opts: CleanOptions = {}): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body, opts);
  return doc.body.innerHTML;
}

export function renderMarkdown(text: string): string {
  return sanitizeHtml(md.parse(text) as string);
}
