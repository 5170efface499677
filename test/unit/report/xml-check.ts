/** An element read back from XML: enough structure to assert on, produced by a strict little parser. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// XML 1.0 Char production: anything else is a fatal error for a conforming parser.
const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

function decode(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw < in ${where}`);
  return raw.replace(/&([^;]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';')) throw new Error(`unterminated reference in ${where}: ${match}`);
    if (ref in ENTITIES) return ENTITIES[ref]!;
    const num = /^#(\d+)$/.exec(ref)?.[1] ?? /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1];
    if (num === undefined) throw new Error(`unknown reference &${ref}; in ${where}`);
    const code = ref.startsWith('#x') ? Number.parseInt(num, 16) : Number.parseInt(num, 10);
    const ch = String.fromCodePoint(code);
    if (!XML_CHAR.test(ch)) throw new Error(`reference to a forbidden character in ${where}`);
    return ch;
  });
}

/**
 * Parses the subset of XML our renderers write (declaration, elements, attributes, text) and throws on
 * anything malformed: unbalanced or crossed tags, raw `<`/`&`, bad references, forbidden characters,
 * duplicate attributes, text outside the root.
 */
export function parseXml(xml: string): XmlElement {
  if (!XML_CHAR.test(xml)) throw new Error('forbidden character in document');
  let rest = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const token =
    /^(?:<\/([A-Za-z_][\w.-]*)\s*>|<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)\s*(\/?)>|([^<]+))/;
  while (rest.length > 0) {
    const m = token.exec(rest);
    if (!m) throw new Error(`malformed markup near ${JSON.stringify(rest.slice(0, 40))}`);
    rest = rest.slice(m[0].length);
    const top = stack[stack.length - 1]!;
    if (m[1] !== undefined) {
      if (top.name !== m[1]) throw new Error(`</${m[1]}> closes <${top.name}>`);
      stack.pop();
    } else if (m[2] !== undefined) {
      const attributes: Record<string, string> = {};
      for (const a of (m[3] ?? '').matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        if (a[1]! in attributes) throw new Error(`duplicate attribute ${a[1]}`);
        attributes[a[1]!] = decode(a[2]!, `attribute ${a[1]}`);
      }
      const element: XmlElement = { name: m[2], attributes, children: [], text: '' };
      if (top === root && root.children.length > 0) throw new Error('more than one root element');
      top.children.push(element);
      if (m[4] !== '/') stack.push(element);
    } else {
      const text = m[5] ?? '';
      if (top === root) {
        if (text.trim() !== '') throw new Error('text outside the root element');
      } else {
        top.text += decode(text, `<${top.name}>`);
      }
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  const [element] = root.children;
  if (!element) throw new Error('no root element');
  return element;
}
