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

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const md = new Marked({ gfm: true, breaks: true, async: false });
md.use({ renderer: { html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text) } });

function clean(node: Node): void {
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
        if (!ALLOWED_ATTRS[tag]?.has(name)) el.removeAttribute(attr.name);
      }
      if (tag === 'input' && el.getAttribute('type') !== 'checkbox') el.remove();
      if (tag === 'a') {
        const href = el.getAttribute('href') ?? '';
        if (!/^(https?:|mailto:)/i.test(href)) el.removeAttribute('href');
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
      }
      clean(el);
    } else if (child.nodeType !== Node.TEXT_NODE) {
      child.parentNode?.removeChild(child);
    }
  }
}

export function renderMarkdown(text: string): string {
  const html = md.parse(text) as string;
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body);
  return doc.body.innerHTML;
}
