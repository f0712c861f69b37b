/**
 * A minimal MIME reader for the tests that receive mail from a real SMTP server (smtp-server): headers,
 * multipart, base64/quoted-printable bodies and encoded words/parameters — what nodemailer writes
 * (mailparser is not installed). The same reader as tests/unit/final-mail.test.ts's, shared here.
 */

export interface MimePart {
  /** Lower-case header names, values unfolded (not decoded). */
  headers: Map<string, string>;
  /** The body after the transfer encoding is undone (multipart: the raw body). */
  body: Buffer;
  parts: MimePart[];
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`), adjacent words joined before decoding (a character may span two). */
export function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  let out = '';
  let last = 0;
  let pending: Buffer[] = [];
  const flush = () => {
    out += Buffer.concat(pending).toString('utf8');
    pending = [];
  };
  for (const match of joined.matchAll(word)) {
    if (match.index > last) {
      flush();
      out += joined.slice(last, match.index);
    }
    const [, , encoding, text = ''] = match;
    pending.push(
      encoding?.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ),
    );
    last = match.index + match[0].length;
  }
  flush();
  return out + joined.slice(last);
}

/** A header's parameters (`type/sub; name="x"; name*0*=utf-8''%D8…`), with RFC 2231 continuations joined. */
export function headerParams(value: string): { value: string; params: Map<string, string> } {
  const pieces = value.match(/(?:[^;"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
  const [first = '', ...rest] = pieces.map((p) => p.trim());
  const segments = new Map<string, { index: number; encoded: boolean; text: string }[]>();
  for (const piece of rest) {
    const eq = piece.indexOf('=');
    if (eq < 0) continue;
    const key = piece.slice(0, eq).trim().toLowerCase();
    let text = piece.slice(eq + 1).trim();
    if (text.startsWith('"')) text = text.slice(1, -1).replace(/\\(.)/g, '$1');
    const m = /^([^*]+)(?:\*(\d+))?(\*)?$/.exec(key);
    if (!m?.[1]) continue;
    const list = segments.get(m[1]) ?? [];
    list.push({ index: Number(m[2] ?? 0), encoded: m[3] === '*', text });
    segments.set(m[1], list);
  }
  const params = new Map<string, string>();
  for (const [name, list] of segments) {
    list.sort((a, b) => a.index - b.index);
    const bytes: Buffer[] = [];
    list.forEach((segment, i) => {
      let text = segment.text;
      if (segment.encoded) {
        if (i === 0) text = text.replace(/^[^']*'[^']*'/, ''); // charset'language' (always UTF-8 here)
        bytes.push(
          Buffer.from(
            text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ),
        );
      } else {
        bytes.push(Buffer.from(text, 'utf8'));
      }
    });
    params.set(name, decodeWords(Buffer.concat(bytes).toString('utf8')));
  }
  return { value: first.toLowerCase(), params };
}

function decodeQuotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  const body = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < body.length; i++) {
    const hex = body.slice(i + 1, i + 3);
    if (body[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(body.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

export function parseMime(raw: Buffer): MimePart {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, split < 0 ? raw.length : split).toString('latin1');
  const rawBody = split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const type = headerParams(headers.get('content-type') ?? 'text/plain');
  const boundary = type.params.get('boundary');
  if (type.value.startsWith('multipart/') && boundary) {
    const text = rawBody.toString('latin1');
    const chunks = text.split(`--${boundary}`);
    // chunks[0] is the preamble, the last starts with "--" (the epilogue).
    const parts = chunks
      .slice(1, -1)
      .map((chunk) => parseMime(Buffer.from(chunk.replace(/^\r\n/, '').replace(/\r\n$/, ''), 'latin1')));
    return { headers, body: rawBody, parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body =
    encoding === 'base64'
      ? Buffer.from(rawBody.toString('latin1').replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(rawBody.toString('latin1'))
        : rawBody;
  return { headers, body, parts: [] };
}

export function leaves(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(leaves);
}

export function contentType(part: MimePart): string {
  return headerParams(part.headers.get('content-type') ?? 'text/plain').value;
}
