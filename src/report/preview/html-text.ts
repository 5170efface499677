/**
 * An email's HTML as readable text for the terminal (`wfsync preview`, human format): what a recipient reads, not
 * how it looks. Pure and forgiving (emails are rarely well-formed): no DOM, a small tag-aware pass. Head, styles,
 * scripts and comments vanish; blocks become lines; links keep their address after the text; list items get a
 * bullet; images become their alt text; entities are decoded; runs of blank space collapse.
 */

/** An element whose content is never read; dropped from its opening tag to its first closing tag. */
const DROPPED_OPEN = /<(head|style|script|title|template|noscript)\b[^>]*>/gi;
const COMMENT = /<!--[\s\S]*?(-->|$)/g;
const BLOCK =
  /^(p|div|h[1-6]|tr|table|tbody|thead|tfoot|section|article|header|footer|blockquote|pre|ul|ol|center|hr|body|html|form|dl|dd|dt|main|nav|aside|figure|figcaption)$/;

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  euro: '€',
  pound: '£',
  zwnj: '',
  zwj: '',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  if (!match) return undefined;
  return decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
}

/**
 * Patterns run only up to the last `>`: past it no tag can end, and a pattern that scans for a `>` that never comes,
 * once per `<`, takes time quadratic in the text (the HTML is a template's output, from a contributor's branch).
 */
function tagged(html: string): { head: string; tail: string } {
  const end = html.lastIndexOf('>') + 1;
  return { head: html.slice(0, end), tail: html.slice(end) };
}

/** Each element of DROPPED_OPEN removed through its first closing tag; one without a closing tag stays. */
function dropElements(html: string): string {
  const { head, tail } = tagged(html);
  const unclosed = new Set<string>();
  let out = '';
  let last = 0;
  DROPPED_OPEN.lastIndex = 0;
  for (let open = DROPPED_OPEN.exec(head); open !== null; open = DROPPED_OPEN.exec(head)) {
    const name = (open[1] ?? '').toLowerCase();
    // Searched once per name: with no closing tag after this opening, none comes after a later one.
    if (unclosed.has(name)) continue;
    const close = new RegExp(`</${name}\\s*>`, 'gi');
    close.lastIndex = DROPPED_OPEN.lastIndex;
    const closing = close.exec(head);
    if (closing === null) {
      unclosed.add(name);
      continue;
    }
    out += head.slice(last, open.index);
    last = closing.index + closing[0].length;
    DROPPED_OPEN.lastIndex = last;
  }
  return out + head.slice(last) + tail;
}

export function htmlToText(html: string): string {
  const cleaned = dropElements(html.replace(COMMENT, ''));
  const { head, tail } = tagged(cleaned);
  let out = '';
  const links: Array<string | undefined> = [];
  let last = 0;
  const text = (chunk: string) => {
    out += decodeEntities(chunk.replace(/\s+/g, ' '));
  };
  for (const match of head.matchAll(/<\/?([a-z][a-z0-9]*)\b[^>]*>|<!doctype[^>]*>/gi)) {
    text(head.slice(last, match.index));
    last = match.index + match[0].length;
    const tag = match[0];
    const name = (match[1] ?? '').toLowerCase();
    const closing = tag.startsWith('</');
    if (name === 'br') out += '\n';
    else if (name === 'li' && !closing) out += '\n• ';
    else if (name === 'td' || name === 'th') out += closing ? '' : ' ';
    else if (name === 'img' && !closing) {
      const alt = attribute(tag, 'alt');
      if (alt) out += `[${alt}]`;
    } else if (name === 'a') {
      if (!closing) links.push(attribute(tag, 'href'));
      else {
        const href = links.pop();
        if (href && !href.startsWith('#') && !out.endsWith(href)) out += ` (${href})`;
      }
    } else if (BLOCK.test(name)) out += '\n\n';
  }
  text(head.slice(last) + tail);
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
