/**
 * Words that say what is meant, checked across every locale string and the screens that use them (a
 * sibling of terminology.test.ts): a word for incoming mail (arrival, الورود) is not used on an outgoing
 * screen nor the other way round; the purposes of a distribution read "For action" and "For information";
 * an offer to write another document names the kind just written; no internal version number is shown;
 * sizes are in the units Arabic readers know (كيلوبايت، ميغابايت), written in locales, not in code.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
type Tree = { [key: string]: string | Tree };

/** Every string of a language, as `file:dotted.key` → text (server.json included). */
function strings(lang: 'ar' | 'en'): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(join(root, 'locales', lang)).filter((f) => f.endsWith('.json'))) {
    const walk = (node: Tree, path: string) => {
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === 'string') out.set(`${file}:${path}${k}`, v);
        else walk(v, `${path}${k}.`);
      }
    };
    walk(JSON.parse(readFileSync(join(root, 'locales', lang, file), 'utf8')) as Tree, '');
  }
  return out;
}

/** The renderer's source files, with their text. */
function rendererSources(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx)$/.test(name))
        out.push({ path: relative(root, path), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(root, 'src-renderer'));
  return out;
}

/** Where in the renderer a correspondence key is used: `file:line`, the line and the two before it. */
function usesOf(key: string): { where: string; line: string; before: string }[] {
  const pattern = new RegExp(`['"\`](?:correspondence:)?${key.replace(/\./g, '\\.')}['"\`]`);
  return rendererSources().flatMap(({ path, text }) => {
    const lines = text.split('\n');
    return lines
      .map((line, i) => ({
        where: `${path}:${i + 1}`,
        line,
        before: lines.slice(Math.max(0, i - 2), i).join('\n'),
      }))
      .filter(({ line }) => pattern.test(line));
  });
}

/** The fields the document detail shows for outgoing letters and memos (its FAMILY_FIELDS table). */
function detailFieldsOf(family: 'out' | 'memo'): string[] {
  const source = readFileSync(
    join(root, 'src-renderer/features/correspondence/documents/DocumentDetail.tsx'),
    'utf8',
  );
  const list = new RegExp(`\\n  ${family}: \\[([^\\]]*)\\]`).exec(source)?.[1] ?? '';
  return [...list.matchAll(/'(\w+)'/g)].map((m) => m[1]!);
}

describe('wording', () => {
  const ar = strings('ar');
  const en = strings('en');

  it('a word for arriving mail is used only on incoming screens, one for sending only on outgoing ones', () => {
    const arrival = [...ar].filter(
      ([k, v]) => k.startsWith('correspondence.json:fields.') && /الورود|الوارد/.test(v),
    );
    const sending = [...ar].filter(
      ([k, v]) => k.startsWith('correspondence.json:fields.') && /الإرسال|الصادر/.test(v),
    );
    expect(arrival.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    const notIncoming = new Set([...detailFieldsOf('out'), ...detailFieldsOf('memo')]);
    for (const [key] of arrival) {
      for (const use of usesOf(key.slice('correspondence.json:'.length))) {
        const incomingScreen = use.where.includes('/inbox/');
        // The line (or the two before it) chooses the incoming family, or the detail's field is one only
        // incoming documents show.
        const choosesIncoming = /(direction|family) === 'in'/.test(`${use.before}\n${use.line}`);
        const field = /key: '(\w+)'/.exec(use.before)?.[1];
        const incomingField =
          use.where.includes('DocumentDetail.tsx') && field !== undefined && !notIncoming.has(field);
        if (!incomingScreen && !choosesIncoming && !incomingField)
          wrong.push(`${use.where}: ${key} (${ar.get(key)}) off an incoming screen`);
      }
    }
    for (const [key] of sending) {
      for (const use of usesOf(key.slice('correspondence.json:'.length))) {
        if (use.where.includes('/inbox/'))
          wrong.push(`${use.where}: ${key} (${ar.get(key)}) on an incoming screen`);
      }
    }
    expect(wrong).toEqual([]);
    // The dispatch of an outgoing letter says how it was sent.
    expect(usesOf('fields.mediumOut').some((u) => u.where.includes('DispatchPanel.tsx'))).toBe(true);
    expect(ar.get('correspondence.json:fields.mediumOut')).toBe('وسيلة الإرسال');
  });

  it('the purposes of a distribution read "For action" and "For information", never "Main" or "Knowledge"', () => {
    expect(en.get('correspondence.json:distributionType.forAction')).toBe('For action');
    expect(en.get('correspondence.json:distributionType.forKnowledge')).toBe('For information');
    expect(ar.get('correspondence.json:distributionType.forAction')).toBe('للإجراء');
    expect(ar.get('correspondence.json:distributionType.forKnowledge')).toBe('للعلم');
    // "Main distribution departments" is the specification's name of a settings list, and a main
    // department is a department at the top of the tree: no other "Main", and no "Knowledge" at all.
    const misleading = [...en].filter(
      ([, v]) => /\bKnowledge\b/i.test(v) || /\bMain\b(?! distribution department| department)/i.test(v),
    );
    expect(misleading).toEqual([]);
  });

  it('an offer to write another document names the kind just written', () => {
    const kinds = { in: [/وارد/, /incoming/], out: [/صادر/, /outgoing/], memo: [/مذكرة/, /memo/] } as const;
    for (const [family, [arabic, english]] of Object.entries(kinds)) {
      expect(ar.get(`correspondence.json:add.another_${family}`), family).toMatch(arabic);
      expect(en.get(`correspondence.json:add.another_${family}`), family).toMatch(english);
    }
    // No offer that names one kind for every kind.
    expect([...ar.keys()].filter((k) => k.endsWith(':add.another'))).toEqual([]);
    // Every string told apart by kind (`_in`, `_out`, `_memo`) exists for all three.
    for (const strings_ of [ar, en]) {
      const families = new Map<string, Set<string>>();
      for (const key of strings_.keys()) {
        const m = /^(.*)_(in|out|memo)$/.exec(key);
        if (m) families.set(m[1]!, (families.get(m[1]!) ?? new Set()).add(m[2]!));
      }
      for (const [key, has] of families) expect([...has].sort(), key).toEqual(['in', 'memo', 'out']);
    }
  });

  it('no internal version number is shown: no string interpolates one', () => {
    expect([...ar, ...en].filter(([, v]) => v.includes('{{version}}'))).toEqual([]);
  });

  it('sizes are in the units Arabic readers know, worded in locales and not in code', () => {
    expect(ar.get('common.json:units.kilobyte')).toBe('كيلوبايت');
    expect(ar.get('common.json:units.megabyte')).toBe('ميغابايت');
    const abbreviated = /(^|[^\p{L}])(ك\.?ب|م\.?ب|ج\.?ب)\.?($|[^\p{L}])/u;
    expect([...ar].filter(([, v]) => abbreviated.test(v))).toEqual([]);
    expect(
      rendererSources()
        .filter(({ text }) => abbreviated.test(text) || /'بايت'/.test(text))
        .map((s) => s.path),
    ).toEqual([]);
  });
});
