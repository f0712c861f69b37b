/**
 * Sign-in end to end: first-run setup, plain sign-in, two-factor required, enrolment at sign-in, skip
 * allowed and refused, recovery codes, reused codes, wrong codes, expired challenges, lockout per account
 * and per address, the rate limiter, logout, sessions ending on password change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { awayFromStepBoundary, codeFor } from './support/rfc6238';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Signs in and enrols: answers the token, the secret and the recovery codes. */
async function enrol(user: { username: string; password: string }) {
  const login = await call(h, {
    method: 'POST',
    url: '/auth/login',
    body: { login: user.username, password: user.password },
  });
  expect(login.json.data.twoFactor).toBe('setup');
  const challengeToken = login.json.data.challengeToken as string;
  const setup = await call(h, {
    method: 'GET',
    url: `/auth/two-factor/setup?challengeToken=${encodeURIComponent(challengeToken)}`,
  });
  expect(setup.status).toBe(200);
  const secret = setup.json.data.secret as string;
  const verify = await call(h, {
    method: 'POST',
    url: '/auth/two-factor/verify',
    body: { challengeToken, code: codeFor(secret) },
  });
  expect(verify.status).toBe(200);
  return {
    token: verify.json.data.accessToken as string,
    secret,
    recoveryCodes: verify.json.data.recoveryCodes as string[],
  };
}

async function challengeFor(user: { username: string; password: string }) {
  const login = await call(h, {
    method: 'POST',
    url: '/auth/login',
    body: { login: user.username, password: user.password },
  });
  expect(login.status).toBe(200);
  return login.json.data as { twoFactor: string; challengeToken: string; canSkip: boolean };
}

describe('first-run setup', () => {
  it('is needed while no user exists, creates the administrator once, then answers 409', async () => {
    const fresh = await startHarness();
    try {
      expect((await call(fresh, { method: 'GET', url: '/setup' })).json.data).toEqual({ needed: true });
      const res = await call(fresh, {
        method: 'POST',
        url: '/setup',
        lang: 'en',
        body: { username: 'admin', email: 'admin@example.com', password: 'secret-pass' },
      });
      expect(res.status).toBe(201);
      expect(res.json.returnMessage).toBe('The administrator account has been created');
      expect(res.json.data.twoFactor).toBe('setup');
      expect(res.json.data.canSkip).toBe(true);
      const skip = await call(fresh, {
        method: 'POST',
        url: '/auth/two-factor/skip',
        body: { challengeToken: res.json.data.challengeToken },
      });
      expect(skip.status).toBe(200);
      const profile = await call(fresh, {
        method: 'GET',
        url: '/auth/profile',
        token: skip.json.data.accessToken,
      });
      expect(profile.json.data.username).toBe('admin');
      expect((await call(fresh, { method: 'GET', url: '/setup' })).json.data).toEqual({ needed: false });
      const again = await call(fresh, {
        method: 'POST',
        url: '/setup',
        lang: 'en',
        body: { username: 'admin2', email: 'admin2@example.com', password: 'secret-pass' },
      });
      expect(again.status).toBe(409);
      expect(again.json.detail).toBe('The system is already set up');
      expect(await countRows(fresh, 'users')).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});

describe('password sign-in', () => {
  it('signs in by username or email (any case) and the token opens the profile', async () => {
    const role = await makeRole(h);
    const user = await makeUser(h, role);
    for (const login of [user.username, user.email.toUpperCase()]) {
      const res = await call(h, {
        method: 'POST',
        url: '/auth/login',
        lang: 'en',
        body: { login, password: user.password, rememberMe: true },
      });
      expect(res.status).toBe(200);
      expect(res.json.returnMessage).toBe('Signed in successfully');
      const profile = await call(h, {
        method: 'GET',
        url: '/auth/profile',
        token: res.json.data.accessToken,
      });
      expect(profile.status).toBe(200);
      expect(profile.json.data).toMatchObject({
        id: user.id,
        username: user.username,
        useTotp: false,
        employee: null,
        locale: 'ar',
      });
    }
  });

  it('answers the same 401 for a wrong password, an unknown login and an inactive user', async () => {
    const role = await makeRole(h);
    const user = await makeUser(h, role);
    const inactive = await makeUser(h, role);
    await h.query(`update users set active = false where id = ${inactive.id}`);
    const answers = await Promise.all([
      call(h, {
        method: 'POST',
        url: '/auth/login',
        lang: 'en',
        body: { login: user.username, password: 'wrong-password' },
      }),
      call(h, {
        method: 'POST',
        url: '/auth/login',
        lang: 'en',
        body: { login: 'nobody-here', password: 'wrong-password' },
      }),
      call(h, {
        method: 'POST',
        url: '/auth/login',
        lang: 'en',
        body: { login: inactive.username, password: inactive.password },
      }),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.json).toMatchObject({
        title: 'Sign-in failed',
        detail: 'Invalid username or password',
        code: 'auth.invalidCredentials',
      });
    }
    const ar = await call(h, {
      method: 'POST',
      url: '/auth/login',
      body: { login: 'nobody-here', password: 'wrong-password' },
    });
    expect(ar.json.detail).toBe('اسم المستخدم أو كلمة المرور غير صحيحة');
  });

  it('logout ends the session', async () => {
    const user = await makeUser(h, await makeRole(h));
    const token = await signIn(h, user);
    const out = await call(h, { method: 'POST', url: '/auth/logout', token, lang: 'en' });
    expect(out.status).toBe(200);
    expect(out.json.returnMessage).toBe('Signed out successfully');
    expect((await call(h, { method: 'GET', url: '/auth/profile', token })).status).toBe(401);
  });

  it('an expired session is refused', async () => {
    const user = await makeUser(h, await makeRole(h));
    const token = await signIn(h, user);
    await h.query(
      `update sessions set idle_expires_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    expect((await call(h, { method: 'GET', url: '/auth/profile', token })).status).toBe(401);
  });
});

describe('two-factor', () => {
  it('offers enrolment with skip where the role allows; skip signs in and the offer rests', async () => {
    const user = await makeUser(h, await makeRole(h), { skipped: false });
    const ch = await challengeFor(user);
    expect(ch).toMatchObject({ twoFactor: 'setup', canSkip: true });
    const skip = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/skip',
      body: { challengeToken: ch.challengeToken },
    });
    expect(skip.status).toBe(200);
    expect(typeof skip.json.data.accessToken).toBe('string');
    // The challenge is single use.
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/auth/two-factor/skip',
          body: { challengeToken: ch.challengeToken },
        })
      ).status,
    ).toBe(401);
    // Next sign-in is plain.
    expect(typeof (await signIn(h, user))).toBe('string');
  });

  it('requires enrolment (no skip) where the role requires two-factor', async () => {
    const user = await makeUser(h, await makeRole(h, {}, { requireTwoFactor: true }));
    const ch = await challengeFor(user);
    expect(ch).toMatchObject({ twoFactor: 'setup', canSkip: false });
    const skip = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/skip',
      lang: 'en',
      body: { challengeToken: ch.challengeToken },
    });
    expect(skip.status).toBe(422);
    expect(skip.json.detail).toBe('Two-factor authentication is required and cannot be skipped');
  });

  it('enrols at sign-in with an independent RFC 6238 code; later sign-ins need a code, once per code', async () => {
    await awayFromStepBoundary();
    const user = await makeUser(h, await makeRole(h, {}, { requireTwoFactor: true }));
    const { token, secret, recoveryCodes } = await enrol(user);
    expect(recoveryCodes).toHaveLength(10);
    const profile = await call(h, { method: 'GET', url: '/auth/profile', token });
    expect(profile.json.data.useTotp).toBe(true);

    // Sign in again: required, no skip.
    const ch = await challengeFor(user);
    expect(ch).toMatchObject({ twoFactor: 'required', canSkip: false });
    // The enrolment code (this step) is spent: it is refused...
    const reused = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      lang: 'en',
      body: { challengeToken: ch.challengeToken, code: codeFor(secret) },
    });
    expect(reused.status).toBe(400);
    expect(reused.json).toMatchObject({
      title: 'Invalid Code',
      detail: 'Please enter a valid code',
      errors: { code: ['Please enter a valid code'] },
    });
    // ...the next step's code is accepted (one step of drift)...
    const ok = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      body: { challengeToken: ch.challengeToken, code: codeFor(secret, 1) },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.data.recoveryCodes).toBeUndefined();
    // ...and the same code cannot open another challenge.
    const ch2 = await challengeFor(user);
    const again = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      body: { challengeToken: ch2.challengeToken, code: codeFor(secret, 1) },
    });
    expect(again.status).toBe(400);
    expect(again.json.title).toBe('رمز غير صحيح');
    // Skip is refused for a required challenge.
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/auth/two-factor/skip',
          body: { challengeToken: ch2.challengeToken },
        })
      ).status,
    ).toBe(422);
  });

  it('accepts a recovery code once', async () => {
    const user = await makeUser(h, await makeRole(h), { skipped: false });
    const { recoveryCodes } = await enrol(user);
    const code = recoveryCodes[0]!;
    const ch = await challengeFor(user);
    const ok = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      body: { challengeToken: ch.challengeToken, code: code.toUpperCase() },
    });
    expect(ok.status).toBe(200);
    const ch2 = await challengeFor(user);
    const reused = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      body: { challengeToken: ch2.challengeToken, code },
    });
    expect(reused.status).toBe(400);
    const other = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      body: { challengeToken: ch2.challengeToken, code: recoveryCodes[1]! },
    });
    expect(other.status).toBe(200);
  });

  it('refuses a wrong code, kills the challenge after five, and refuses an expired challenge', async () => {
    const user = await makeUser(h, await makeRole(h), { skipped: false });
    const { secret } = await enrol(user);
    const ch = await challengeFor(user);
    for (let i = 0; i < 5; i++) {
      const wrong = await call(h, {
        method: 'POST',
        url: '/auth/two-factor/verify',
        body: {
          challengeToken: ch.challengeToken,
          code: '000000' === codeFor(secret, 1) ? '111111' : '000000',
        },
      });
      expect(wrong.status).toBe(400);
    }
    const dead = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      lang: 'en',
      body: { challengeToken: ch.challengeToken, code: codeFor(secret, 1) },
    });
    expect(dead.status).toBe(401);
    expect(dead.json.detail).toBe('The verification step has expired. Please sign in again');

    const ch2 = await challengeFor(user);
    await h.query(
      `update two_factor_challenges set expires_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    const expired = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/verify',
      body: { challengeToken: ch2.challengeToken, code: codeFor(secret, 1) },
    });
    expect(expired.status).toBe(401);
    expect(expired.json.code).toBe('auth.challengeExpired');
  });

  it('signed in: setup, enable, renew recovery codes and disable need proof', async () => {
    const user = await makeUser(h, await makeRole(h));
    const token = await signIn(h, user);
    const setup = await call(h, { method: 'GET', url: '/auth/two-factor/setup', token });
    expect(setup.status).toBe(200);
    expect(setup.json.data.otpauthUri).toMatch(/^otpauth:\/\/totp\/Sijill:.*secret=/);
    expect(setup.json.data.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const secret = setup.json.data.secret as string;
    expect(
      (await call(h, { method: 'POST', url: '/auth/two-factor/enable', token, body: { code: '123' } }))
        .status,
    ).toBe(400);
    const enable = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/enable',
      token,
      lang: 'en',
      body: { code: codeFor(secret) },
    });
    expect(enable.status).toBe(200);
    expect(enable.json.returnMessage).toBe('Two-factor authentication enabled');
    expect(enable.json.data.recoveryCodes).toHaveLength(10);
    expect((await call(h, { method: 'GET', url: '/auth/two-factor/setup', token })).status).toBe(409);

    const badProof = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/recovery-codes',
      token,
      body: { password: 'not-my-password' },
    });
    expect(badProof.status).toBe(400);
    const renew = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/recovery-codes',
      token,
      body: { password: user.password },
    });
    expect(renew.status).toBe(200);
    const fresh = renew.json.data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(enable.json.data.recoveryCodes[0]);

    expect((await call(h, { method: 'POST', url: '/auth/two-factor/disable', token, body: {} })).status).toBe(
      400,
    );
    const disable = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/disable',
      token,
      body: { code: codeFor(secret, 1) },
    });
    expect(disable.status).toBe(200);
    expect((await call(h, { method: 'GET', url: '/auth/profile', token })).json.data.useTotp).toBe(false);
    expect(await countRows(h, `recovery_codes where user_id = ${user.id}`)).toBe(0);
  });

  it('refuses to disable two-factor where the role requires it', async () => {
    const user = await makeUser(h, await makeRole(h, {}, { requireTwoFactor: true }));
    const { token } = await enrol(user);
    const res = await call(h, {
      method: 'POST',
      url: '/auth/two-factor/disable',
      token,
      lang: 'en',
      body: { password: user.password },
    });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe('Your role requires two-factor authentication');
  });
});

describe('own password change', () => {
  it('needs the old password, ends every session and returns a fresh token', async () => {
    const user = await makeUser(h, await makeRole(h));
    const a = await signIn(h, user);
    const b = await signIn(h, user);
    const wrong = await call(h, {
      method: 'PUT',
      url: '/auth/profile/password',
      token: a,
      lang: 'en',
      body: { oldPassword: 'nope-nope', password: 'new-password-1', passwordConfirmation: 'new-password-1' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors.oldPassword).toEqual(['The password is incorrect']);
    const mismatch = await call(h, {
      method: 'PUT',
      url: '/auth/profile/password',
      token: a,
      lang: 'en',
      body: {
        oldPassword: user.password,
        password: 'new-password-1',
        passwordConfirmation: 'new-password-2',
      },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.errors.passwordConfirmation).toEqual(['Passwords do not match']);
    const ok = await call(h, {
      method: 'PUT',
      url: '/auth/profile/password',
      token: a,
      body: {
        oldPassword: user.password,
        password: 'new-password-1',
        passwordConfirmation: 'new-password-1',
      },
    });
    expect(ok.status).toBe(200);
    expect((await call(h, { method: 'GET', url: '/auth/profile', token: a })).status).toBe(401);
    expect((await call(h, { method: 'GET', url: '/auth/profile', token: b })).status).toBe(401);
    expect(
      (await call(h, { method: 'GET', url: '/auth/profile', token: ok.json.data.accessToken })).status,
    ).toBe(200);
    await expect(signIn(h, user)).rejects.toThrow();
    expect(typeof (await signIn(h, { username: user.username, password: 'new-password-1' }))).toBe('string');
  });
});

describe('lockout', () => {
  it('locks an account after five failures, whether or not it exists, with the same answer', async () => {
    const user = await makeUser(h, await makeRole(h));
    const run = async (login: string, ip: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (
            await call(h, {
              method: 'POST',
              url: '/auth/login',
              ip,
              body: { login, password: 'wrong-password' },
            })
          ).status,
        );
      const locked = await call(h, {
        method: 'POST',
        url: '/auth/login',
        ip,
        lang: 'en',
        body: { login, password: user.password },
      });
      return { statuses, locked };
    };
    const real = await run(user.username, '10.1.0.1');
    const ghost = await run('ghost-account', '10.1.0.2');
    expect(real.statuses).toEqual([401, 401, 401, 401, 401]);
    expect(ghost.statuses).toEqual(real.statuses);
    expect(real.locked.status).toBe(429);
    expect(ghost.locked.status).toBe(429);
    expect(real.locked.json.detail).toMatch(/^Too many failed attempts\. Please try again in \d+ minutes$/);
    expect(ghost.locked.json.detail).toBe(real.locked.json.detail);
    // The right password is refused while locked, from any address.
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/auth/login',
          ip: '10.1.0.3',
          body: { login: user.username, password: user.password },
        })
      ).status,
    ).toBe(429);
    // After the lock ends, the right password works again.
    await h.query(
      `update login_throttle set locked_until = now() - interval '1 second', window_started_at = now() - interval '1 day'`,
    );
    expect(typeof (await signIn(h, user))).toBe('string');
    const audit = await h.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'auth.login.failure' and details->>'login' = 'ghost-account'`,
    );
    expect(Number(audit[0]!.n)).toBe(5);
  });

  it('locks an address after its limit across different accounts', async () => {
    const strict = await startHarness({ LOGIN_MAX_FAILURES_IP: '3' });
    try {
      const user = await makeUser(strict, await makeRole(strict));
      for (let i = 0; i < 3; i++) {
        expect(
          (
            await call(strict, {
              method: 'POST',
              url: '/auth/login',
              ip: '10.2.0.1',
              body: { login: `someone${i}`, password: 'wrong-password' },
            })
          ).status,
        ).toBe(401);
      }
      expect(
        (
          await call(strict, {
            method: 'POST',
            url: '/auth/login',
            ip: '10.2.0.1',
            body: { login: user.username, password: user.password },
          })
        ).status,
      ).toBe(429);
      expect(
        (
          await call(strict, {
            method: 'POST',
            url: '/auth/login',
            ip: '10.2.0.2',
            body: { login: user.username, password: user.password },
          })
        ).status,
      ).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('rate-limits the sign-in route per address when configured', async () => {
    const limited = await startHarness({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (
            await call(limited, {
              method: 'POST',
              url: '/auth/login',
              ip: '10.3.0.1',
              body: { login: `x${i}`, password: 'wrong-password' },
            })
          ).status,
        );
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limitedAnswer = await call(limited, {
        method: 'POST',
        url: '/auth/login',
        ip: '10.3.0.1',
        lang: 'en',
        body: { login: 'x', password: 'wrong-password' },
      });
      expect(limitedAnswer.json.detail).toBe('Too many attempts. Please try again later');
      // Not global: other routes are not limited.
      for (let i = 0; i < 5; i++)
        expect((await call(limited, { method: 'GET', url: '/health', ip: '10.3.0.1' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
