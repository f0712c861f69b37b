/**
 * Bad input of every kind — missing, too long, wrong type, unknown fields, control characters, very long
 * Unicode, SQL-looking strings — answers 400 with field messages in the asked language and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';

let h: Harness;
let token: string;
let roleId: number;
beforeAll(async () => {
  h = await startHarness();
  token = await signIn(h, await makeUser(h, 'admin'));
  roleId = await makeRole(h);
});
afterAll(async () => {
  await h?.close();
});

const valid = () => ({
  username: 'valid_user',
  email: 'valid@example.com',
  nameAr: 'اسم',
  nameEn: 'Name',
  roleId: 1,
  password: 'secret-1',
  passwordConfirmation: 'secret-1',
});

type Case = { name: string; body: unknown; field: string; ar: string; en: string };
const CASES: Case[] = [
  {
    name: 'missing field',
    body: (({ email: _e, ...rest }) => rest)(valid()),
    field: 'email',
    ar: 'هذا الحقل مطلوب',
    en: 'This field is required',
  },
  {
    name: 'empty field',
    body: { ...valid(), nameEn: '' },
    field: 'nameEn',
    ar: 'هذا الحقل مطلوب',
    en: 'This field is required',
  },
  {
    name: 'too short password',
    body: { ...valid(), password: '123', passwordConfirmation: '123' },
    field: 'password',
    ar: 'الحد الأدنى للطول هو 6',
    en: 'Minimum length is 6',
  },
  {
    name: 'too long name',
    body: { ...valid(), nameEn: 'x'.repeat(201) },
    field: 'nameEn',
    ar: 'الحد الأقصى للطول هو 200',
    en: 'Maximum length is 200',
  },
  {
    name: 'very long Unicode',
    body: { ...valid(), nameAr: 'سجلّ🗂️'.repeat(500) },
    field: 'nameAr',
    ar: 'الحد الأقصى للطول هو 200',
    en: 'Maximum length is 200',
  },
  {
    name: 'wrong type',
    body: { ...valid(), roleId: 'one' },
    field: 'roleId',
    ar: 'الرجاء إدخال رقم صحيح',
    en: 'Please enter a valid number',
  },
  {
    name: 'unknown field',
    body: { ...valid(), isAdmin: true },
    field: 'isAdmin',
    ar: 'هذا الحقل غير مسموح به',
    en: 'This field is not allowed',
  },
  {
    name: 'control characters',
    body: { ...valid(), nameEn: 'Bad\u0000Name' },
    field: 'nameEn',
    ar: 'لا يُسمح بأحرف التحكم',
    en: 'Control characters are not allowed',
  },
  {
    name: 'newline in a name',
    body: { ...valid(), nameEn: 'Two\nLines' },
    field: 'nameEn',
    ar: 'لا يُسمح بأحرف التحكم',
    en: 'Control characters are not allowed',
  },
  {
    name: 'SQL-looking username',
    body: { ...valid(), username: "admin'; DROP TABLE users;--" },
    field: 'username',
    ar: 'استخدم الحروف أو الأرقام أو النقطة أو الشرطة أو الشرطة السفلية',
    en: 'Use letters, digits, dot, dash or underscore',
  },
  {
    name: 'invalid email',
    body: { ...valid(), email: "x@y' OR '1'='1" },
    field: 'email',
    ar: 'الرجاء إدخال بريد إلكتروني صحيح',
    en: 'Please enter a valid email',
  },
  {
    name: 'wrong choice',
    body: { ...valid(), locale: 'fr' },
    field: 'locale',
    ar: 'الرجاء اختيار إحدى القيم المسموح بها',
    en: 'Please choose one of the allowed values',
  },
  {
    name: 'password mismatch',
    body: { ...valid(), passwordConfirmation: 'secret-2' },
    field: 'passwordConfirmation',
    ar: 'كلمتا المرور غير متطابقتين',
    en: 'Passwords do not match',
  },
];

describe('POST /auth/users refuses bad input and changes nothing', () => {
  it.each(CASES)('$name', async (c) => {
    const users = await countRows(h, 'users');
    const audit = await countRows(h, 'audit_log');
    for (const lang of ['ar', 'en'] as const) {
      const res = await call(h, { method: 'POST', url: '/auth/users', token, lang, body: c.body });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json.detail).toBe(lang === 'ar' ? 'بعض الحقول غير صحيحة' : 'Some fields are not valid');
      expect(res.json.errors[c.field]).toContain(lang === 'ar' ? c.ar : c.en);
    }
    expect(await countRows(h, 'users')).toBe(users);
    expect(await countRows(h, 'audit_log')).toBe(audit);
  });
});

describe('sign-in refuses bad input', () => {
  it.each([
    { body: {}, field: 'login', en: 'This field is required' },
    { body: { login: 'a', password: 'x' }, field: 'password', en: 'Minimum length is 6' },
    { body: { login: 'a'.repeat(300), password: 'secret-1' }, field: 'login', en: 'Maximum length is 254' },
    {
      body: { login: 'a', password: 'secret-1', rememberMe: 'yes' },
      field: 'rememberMe',
      en: 'This value is not valid',
    },
    { body: { login: 'a', password: 'secret-1', admin: 1 }, field: 'admin', en: 'This field is not allowed' },
    {
      body: { login: 'a\u0007', password: 'secret-1' },
      field: 'login',
      en: 'Control characters are not allowed',
    },
  ])('$field: $en', async (c) => {
    const throttle = await countRows(h, 'login_throttle');
    const res = await call(h, { method: 'POST', url: '/auth/login', lang: 'en', body: c.body });
    expect(res.status).toBe(400);
    expect(res.json.errors[c.field]).toContain(c.en);
    expect(await countRows(h, 'login_throttle')).toBe(throttle);
  });

  it('an SQL-looking login is just a wrong login', async () => {
    const res = await call(h, {
      method: 'POST',
      url: '/auth/login',
      lang: 'en',
      body: { login: "' OR '1'='1' --", password: "' OR '1'='1' --" },
    });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('auth.invalidCredentials');
  });

  it('a body that is not JSON is a 400 problem', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      payload: '{"login":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('JSON nested too deep', () => {
  /** `depth` arrays, objects, or both in turn, around a number. */
  const nested = (kind: 'arrays' | 'objects' | 'mixed', depth: number) => {
    let open = '';
    let close = '';
    for (let i = 0; i < depth; i++) {
      const array = kind === 'arrays' || (kind === 'mixed' && i % 2 === 0);
      open += array ? '[' : '{"a":';
      close = (array ? ']' : '}') + close;
    }
    return `${open}1${close}`;
  };
  const raw = (url: string, payload: string, lang: 'ar' | 'en', bearer?: string) =>
    h.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        'accept-language': lang,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      payload,
    });

  it('is a 400 saying so in both languages, signed in or not, before anything walks it', async () => {
    for (const kind of ['arrays', 'objects', 'mixed'] as const) {
      for (const depth of [65, 100_000]) {
        const body = nested(kind, depth);
        // The field that overflowed the text guard's stack: a login, and a signed-in route's body.
        const login = await raw('/auth/login', `{"login":"a","password":"b","x":${body}}`, 'en');
        expect(login.statusCode, `${kind} ${depth}: ${login.body}`).toBe(400);
        expect(login.json()).toMatchObject({
          code: 'request.tooDeep',
          detail: 'The request nests lists and objects more than 64 levels deep; send a flatter one',
        });
        const role = await raw('/auth/roles', body, 'ar', token);
        expect(role.statusCode, `${kind} ${depth}: ${role.body}`).toBe(400);
        expect(role.json()).toMatchObject({
          code: 'request.tooDeep',
          detail: 'يتداخل الطلب في أكثر من 64 مستوى من القوائم والكائنات؛ أرسل طلبًا أقل تداخلًا',
        });
      }
    }
  });

  it('at the limit it is read like any body: validated, its text guarded', async () => {
    for (const kind of ['arrays', 'objects', 'mixed'] as const) {
      // 64 levels: the body itself, one more for the object around the field.
      const at = await raw('/auth/login', nested(kind, 64), 'en');
      expect(at.statusCode).toBe(400);
      expect(at.json().code, at.body).toBeUndefined(); // a validation problem, not tooDeep
      const field = await raw('/auth/login', `{"login":"a","password":"b","x":${nested(kind, 63)}}`, 'en');
      expect(field.statusCode).toBe(400);
      expect(field.json().errors?.x, field.body).toEqual(['This field is not allowed']);
    }
    // Brackets inside strings are text, not nesting; a NUL 63 levels down is still found.
    const text = await raw(
      '/auth/login',
      `{"login":"${'['.repeat(70)}","password":"${'{'.repeat(70)}"}`,
      'en',
    );
    expect(text.statusCode).toBe(401);
    const nul = nested('objects', 63).replace('1', '"a\\u0000b"');
    const guarded = await raw('/auth/login', `{"login":"a","password":"b","x":${nul}}`, 'en');
    expect(guarded.statusCode).toBe(400);
    expect(Object.keys(guarded.json().errors ?? {})[0]).toMatch(/^x(\.a)+$/);
  });

  it('in a list’s filters: a 400 naming the field', async () => {
    for (const depth of [65, 600]) {
      const res = await call(h, {
        method: 'GET',
        url: `/auth/users?filters=${encodeURIComponent(nested('objects', depth))}`,
        token,
        lang: 'en',
      });
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      expect(res.json.code).toBe('request.tooDeep');
      expect(res.json.errors.filters).toEqual(['This value nests more than 64 levels deep']);
    }
  });
});

describe('other bodies, params and queries', () => {
  it('refuses a bad id, bad list query and bad role edit without changing anything', async () => {
    const roles = await countRows(h, 'roles');
    expect((await call(h, { method: 'GET', url: '/auth/users/abc', token })).status).toBe(400);
    expect((await call(h, { method: 'GET', url: '/auth/users/0', token })).status).toBe(400);
    const q = await call(h, { method: 'GET', url: '/auth/users?pageSize=100000&extra=1', token, lang: 'en' });
    expect(q.status).toBe(400);
    expect(q.json.errors.pageSize).toEqual(['The maximum is 200']);
    expect(q.json.errors.extra).toEqual(['This field is not allowed']);
    expect(
      (
        await call(h, {
          method: 'GET',
          url: `/auth/users?sort=${encodeURIComponent('id; drop table users')}`,
          token,
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(h, { method: 'GET', url: `/auth/users?filters=${encodeURIComponent('not json')}`, token }))
        .status,
    ).toBe(400);
    expect(
      (await call(h, { method: 'PUT', url: `/auth/roles/${roleId}`, token, body: { nameEn: 5 } })).status,
    ).toBe(400);
    expect((await call(h, { method: 'POST', url: '/auth/roles', token, body: { nameAr: 'x' } })).status).toBe(
      400,
    );
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/auth/pages',
          token,
          body: { parentId: null, nameAr: 'x', nameEn: 'x', path: '/../etc' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(h, {
          method: 'PUT',
          url: `/auth/roles/${roleId}/permissions`,
          token,
          body: { entries: [{ pageId: 1, permissions: ['root'] }] },
        })
      ).status,
    ).toBe(400);
    expect(await countRows(h, 'roles')).toBe(roles);
    expect(await countRows(h, `role_page_permissions where role_id = ${roleId}`)).toBe(0);
  });
});
