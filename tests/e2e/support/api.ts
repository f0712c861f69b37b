/**
 * Seeds data straight through the REST API (as an administrator would with the admin screens), so a
 * test can set up roles and users in a few calls and then act as the user in the browser.
 */
import * as OTPAuth from 'otpauth';

export const ADMIN = {
  username: 'admin',
  email: 'admin@sijill.test',
  password: 'Admin#2025',
  nameAr: 'مدير النظام',
  nameEn: 'System Administrator',
};

type Json = Record<string, unknown>;

export class Api {
  constructor(
    readonly baseUrl: string,
    private token: string | null = null,
  ) {}

  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    locale = 'en',
  ): Promise<{ status: number; data: T; body: Json }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        'Accept-Language': locale,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    const json = (text ? JSON.parse(text) : {}) as Json;
    return { status: response.status, data: json.data as T, body: json };
  }

  /** The token of the signed-in account (tests that hand it to main's vault). */
  get accessToken(): string | null {
    return this.token;
  }

  async ok<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path} → ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.data;
  }

  /** The bytes a GET answers (a PDF the server makes), as this account; a refusal throws. */
  async bytes(path: string): Promise<Uint8Array> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      headers: this.token ? { Authorization: `Bearer ${this.token}` } : {},
    });
    if (!response.ok) throw new Error(`GET ${path} → ${response.status}: ${await response.text()}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** Whether the server still waits for its first administrator. */
  async setupNeeded(): Promise<boolean> {
    return (await this.ok<{ needed: boolean }>('GET', '/setup')).needed;
  }

  /** Creates the first administrator (if needed) and signs in as them. */
  static async administrator(baseUrl: string): Promise<Api> {
    const api = new Api(baseUrl);
    if (await api.setupNeeded()) await api.ok('POST', '/setup', ADMIN);
    await api.signIn(ADMIN.username, ADMIN.password);
    return api;
  }

  /** Signs in with a password (and a TOTP secret when the account has two-factor). */
  async signIn(login: string, password: string, totpSecret?: string): Promise<void> {
    const answer = await this.ok<{
      accessToken?: string;
      challengeToken?: string;
      twoFactor?: string;
      canSkip?: boolean;
    }>('POST', '/auth/login', { login, password, rememberMe: false });
    if (answer.accessToken) {
      this.token = answer.accessToken;
      return;
    }
    if (answer.twoFactor === 'setup' && answer.canSkip) {
      // The enrolment offer of a first sign-in: skipped, as a user may.
      const skipped = await this.ok<{ accessToken: string }>('POST', '/auth/two-factor/skip', {
        challengeToken: answer.challengeToken,
      });
      this.token = skipped.accessToken;
      return;
    }
    if (!totpSecret) throw new Error(`${login} needs a second step`);
    const verified = await this.ok<{ accessToken: string }>('POST', '/auth/two-factor/verify', {
      challengeToken: answer.challengeToken,
      code: totpNow(totpSecret),
    });
    this.token = verified.accessToken;
  }

  /** The page ids by path (sections and pages). */
  async pageIds(): Promise<Map<string, number>> {
    const tree = await this.ok<{
      pages: { id: number; path: string; children: { id: number; path: string }[] }[];
    }>('GET', '/auth/pages');
    const ids = new Map<string, number>();
    for (const section of tree.pages) {
      ids.set(section.path, section.id);
      for (const page of section.children) ids.set(page.path, page.id);
    }
    return ids;
  }

  /** A role holding `view` (plus the given permissions) on exactly these pages. */
  async createRole(
    nameEn: string,
    pages: Record<string, string[]>,
    requireTwoFactor = false,
  ): Promise<number> {
    const role = await this.ok<{ id: number }>('POST', '/auth/roles', {
      nameAr: `دور ${nameEn}`,
      nameEn,
      requireTwoFactor,
    });
    const ids = await this.pageIds();
    const entries = Object.entries(pages).map(([path, permissions]) => {
      const pageId = ids.get(path);
      if (!pageId) throw new Error(`no page ${path}`);
      return { pageId, permissions: ['view', ...permissions.filter((p) => p !== 'view')] };
    });
    await this.ok('PUT', `/auth/roles/${role.id}/permissions`, { entries });
    return role.id;
  }

  async createUser(user: {
    username: string;
    password: string;
    roleId: number;
    nameAr?: string;
    nameEn?: string;
  }): Promise<number> {
    const created = await this.ok<{ id: number }>('POST', '/auth/users', {
      username: user.username,
      email: `${user.username}@sijill.test`,
      nameAr: user.nameAr ?? `مستخدم ${user.username}`,
      nameEn: user.nameEn ?? `User ${user.username}`,
      roleId: user.roleId,
      locale: 'ar',
      password: user.password,
      passwordConfirmation: user.password,
    });
    return created.id;
  }

  /** An administrator sets a user's password (the user's sessions end). */
  async setPassword(userId: number, password: string): Promise<void> {
    await this.ok('PUT', `/auth/users/${userId}/password`, { password, passwordConfirmation: password });
  }
}

/** The current TOTP code of a base32 secret (what an authenticator app shows). */
export function totpNow(secret: string): string {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  }).generate();
}

/**
 * A TOTP code the server has not seen yet: the server accepts each time step once, so a test that needs
 * a second code in the same 30 s waits for the next step.
 */
export async function freshTotp(secret: string, used: Set<string>): Promise<string> {
  for (;;) {
    const code = totpNow(secret);
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** What `seedArchiveOffice` made. */
export interface ArchiveOffice {
  archive: number;
  finance: number;
  sender: number;
  codification: number;
  /** The clerk, signed in through the API. */
  clerk: Api;
}

/**
 * An archive office with a finance department under it, an external sender, an incoming codification
 * (`IN`) and a clerk of the office whose role holds `pages` — the organisation most end-to-end tests of
 * incoming mail start from.
 */
export async function seedArchiveOffice(
  admin: Api,
  opts: { roleName: string; pages: Record<string, string[]>; username: string; password: string },
): Promise<ArchiveOffice> {
  const archive = await admin.ok<{ id: number }>('POST', '/ec/departments', {
    nameAr: 'مكتب الأرشيف',
    nameEn: 'Archive Office',
    archiveType: 'inOut',
  });
  const finance = await admin.ok<{ id: number }>('POST', '/ec/departments', {
    nameAr: 'الشؤون المالية',
    nameEn: 'Finance',
    archiveOfficeId: archive.id,
  });
  const sender = await admin.ok<{ id: number }>('POST', '/ec/departments', {
    nameAr: 'وزارة الصحة',
    nameEn: 'Ministry of Health',
    type: 'external',
    isEntity: true,
  });
  const codification = await admin.ok<{ id: number }>('POST', '/correspondence/settings/codifications', {
    nameAr: 'وارد عام',
    nameEn: 'General incoming',
    prefix: 'IN',
    direction: 'in',
  });
  const job = await admin.ok<{ id: number }>('POST', '/ec/jobs', {
    nameAr: 'موظف',
    nameEn: 'Officer',
    isManager: false,
  });
  const role = await admin.createRole(opts.roleName, opts.pages);
  await admin.ok('POST', '/ec/employees', {
    firstNameAr: 'منى',
    lastNameAr: 'العتيبي',
    firstNameEn: 'Mona',
    lastNameEn: 'Alotaibi',
    departmentId: archive.id,
    jobId: job.id,
    user: {
      username: opts.username,
      email: `${opts.username}@sijill.test`,
      roleId: role,
      password: opts.password,
    },
  });
  const clerk = new Api(admin.baseUrl);
  await clerk.signIn(opts.username, opts.password);
  return {
    archive: archive.id,
    finance: finance.id,
    sender: sender.id,
    codification: codification.id,
    clerk,
  };
}

/** An incoming letter the office's clerk registers from the sender to finance, dated today. */
export function registerIncoming(
  office: ArchiveOffice,
  subject: string,
): Promise<{ id: number; docNumber: string }> {
  return office.clerk.ok<{ id: number; docNumber: string }>('POST', '/correspondence/documents', {
    direction: 'in',
    subject,
    senderDepartmentId: office.sender,
    recipientDepartmentId: office.finance,
    codificationId: office.codification,
    documentDate: new Date().toISOString().slice(0, 10),
    register: true,
  });
}
