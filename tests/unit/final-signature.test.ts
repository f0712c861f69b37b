/**
 * The organisation's certificate and the PDF signature (src-server/modules/final/signature.ts). Signed
 * files are checked by an independent validator, poppler's `pdfsig` (Debian's poppler-utils): its
 * "Signature Validation" line, never its trust line — the test certificates have no trusted root.
 * Certificates are made at test time (tests/support/certificates.ts).
 */
import { X509Certificate, createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';
import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts, PDFArray, PDFHexString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CertificateProblem,
  loadSecretsKey,
  openSecret,
  readPkcs12,
  sealSecret,
  signPdf,
  type CertificateProblemCode,
} from '../../src-server/modules/final/signature';
import {
  caChain,
  certificateOnly,
  encryptionOnly,
  mismatched,
  selfSigned,
  type TestPkcs12,
} from '../../tests/support/certificates';

const PDFSIG = '/usr/bin/pdfsig';
const OPENSSL = '/usr/bin/openssl';
const DAY = 86_400_000;
const INFO = {
  reason: 'اعتماد الخطاب (رقم ٥) \\ approved',
  name: 'المدير العام',
  location: 'الرياض',
  contactInfo: 'records@example.sa',
};

let dir: string;
let letter: Uint8Array;
let self: TestPkcs12;
let chain: TestPkcs12;

/** pdfsig's report of a file (it exits non-zero for a bad signature: the report is what counts). */
async function pdfsig(bytes: Uint8Array, name: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  try {
    return (await promisify(execFile)(PDFSIG, [file])).stdout;
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

const validationLine = (report: string) => /Signature Validation: (.*)/.exec(report)?.[1] ?? report;

/** The signature dictionary of a signed PDF (the first field's /V), read back with pdf-lib. */
async function signatureDict(signed: Uint8Array): Promise<PDFDict> {
  const doc = await PDFDocument.load(signed);
  const form = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
  const field = form.lookup(PDFName.of('Fields'), PDFArray).lookup(0, PDFDict);
  return field.lookup(PDFName.of('V'), PDFDict);
}

/** The CMS in /Contents as DER (the placeholder's zero padding left off). */
async function cmsDer(signed: Uint8Array): Promise<Buffer> {
  const contents = (await signatureDict(signed)).lookup(PDFName.of('Contents'), PDFHexString);
  const bytes = Buffer.from(contents.asString(), 'hex');
  // A SEQUENCE with a two-byte length (30 82 hi lo): the CMS is that long, the rest is padding.
  expect([bytes[0], bytes[1]]).toEqual([0x30, 0x82]);
  return bytes.subarray(0, 4 + bytes.readUInt16BE(2));
}

/** The CMS parsed with forge. */
async function cmsOf(signed: Uint8Array) {
  const asn1 = forge.asn1.fromDer((await cmsDer(signed)).toString('binary'));
  return forge.pkcs7.messageFromAsn1(asn1) as forge.pkcs7.PkcsSignedData;
}

/** The bytes the signature covers (the /ByteRange's two parts). */
function signedBytes(signed: Buffer): Buffer {
  const range = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/
    .exec(signed.toString('latin1'))!
    .slice(1)
    .map(Number);
  const [a, b, c, d] = range as [number, number, number, number];
  return Buffer.concat([signed.subarray(a, a + b), signed.subarray(c, c + d)]);
}

function problemOf(run: () => unknown): CertificateProblemCode | 'none' {
  try {
    run();
    return 'none';
  } catch (error) {
    if (error instanceof CertificateProblem) return error.code;
    throw error;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sijill-signature-'));
  const doc = await PDFDocument.create();
  doc.setTitle('Sijill letter');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2])
    doc.addPage([595, 842]).drawText(`Letter OUT-2026-000012, page ${n}`, { x: 72, y: 760, size: 14, font });
  letter = await doc.save();
  self = selfSigned({ cn: 'Sijill Self-Signed' });
  chain = caChain();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(PDFSIG))('signPdf, checked by pdfsig', () => {
  it('signs with a self-signed certificate: the signature is valid, over the whole file', async () => {
    const signed = await signPdf(letter, self.p12, self.password, INFO);
    const report = await pdfsig(signed, 'self.pdf');
    expect(validationLine(report)).toBe('Signature is Valid.');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toMatch(/^\s*- Total document signed/m);
    expect(report).toContain('Sijill Self-Signed');
  });

  it('signs with a CA chain: valid, and the CMS carries the three certificates', async () => {
    const signed = await signPdf(letter, chain.p12, chain.password, INFO);
    expect(validationLine(await pdfsig(signed, 'chain.pdf'))).toBe('Signature is Valid.');
    const cms = await cmsOf(signed);
    expect(cms.certificates).toHaveLength(3);
    expect(cms.certificates.map((cert) => cert.subject.getField('CN').value)).toEqual(
      expect.arrayContaining(['Sijill Test Signer', 'Sijill Test Issuing CA', 'Sijill Test Root CA']),
    );
  });

  it.skipIf(!existsSync(OPENSSL))(
    'makes a PAdES B-B CMS: OpenSSL verifies it up to the root; signing-certificate-v2, no signingTime',
    async () => {
      const signed = Buffer.from(await signPdf(letter, chain.p12, chain.password, INFO));
      await writeFile(join(dir, 'cms.der'), await cmsDer(signed));
      await writeFile(join(dir, 'content.bin'), signedBytes(signed));
      await writeFile(join(dir, 'root.pem'), chain.certificatePems[2]!);
      const openssl = (args: string[]) => promisify(execFile)(OPENSSL, ['cms', ...args], { cwd: dir });
      const verified = await openssl([
        '-verify',
        '-inform',
        'DER',
        '-in',
        'cms.der',
        '-content',
        'content.bin',
        '-binary',
        '-CAfile',
        'root.pem',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ]);
      expect(verified.stderr).toContain('Verification successful');
      const printed = (await openssl(['-cmsout', '-print', '-inform', 'DER', '-in', 'cms.der'])).stdout;
      const signedAttrs = printed.slice(
        printed.indexOf('signedAttrs:'),
        printed.indexOf('signatureAlgorithm:', printed.indexOf('signedAttrs:')),
      );
      expect([...signedAttrs.matchAll(/object: (\S+)/g)].map((m) => m[1])).toEqual([
        'contentType',
        'messageDigest',
        'id-smime-aa-signingCertificateV2',
      ]);
      // The attribute names the leaf: its SHA-256.
      const leafHash = createHash('sha256')
        .update(new X509Certificate(chain.certificatePems[0]!).raw)
        .digest('hex');
      expect(signedAttrs.replace(/\s/g, '')).toContain(`[HEXDUMP]:${leafHash.toUpperCase()}`);
    },
  );

  it('writes Arabic reason, name and location as PDF text strings that read back unchanged', async () => {
    const signingTime = new Date('2026-11-27T09:30:00Z');
    const signed = await signPdf(letter, self.p12, self.password, { ...INFO, signingTime });
    const sig = await signatureDict(signed);
    const text = (key: string) => sig.lookup(PDFName.of(key), PDFString).decodeText();
    expect(text('Reason')).toBe(INFO.reason);
    expect(text('Name')).toBe(INFO.name);
    expect(text('Location')).toBe(INFO.location);
    expect(text('ContactInfo')).toBe(INFO.contactInfo);
    expect(sig.lookup(PDFName.of('M'), PDFString).decodeDate().toISOString()).toBe(signingTime.toISOString());
    // The original pages are all there.
    expect((await PDFDocument.load(signed)).getPageCount()).toBe(2);
  });

  it('notices one changed byte inside the signed range, and bytes appended after it', async () => {
    const signed = Buffer.from(await signPdf(letter, chain.p12, chain.password, INFO));
    const report = await pdfsig(signed, 'intact.pdf');
    expect(validationLine(report)).toBe('Signature is Valid.');
    const range = /\/ByteRange \[0 (\d+) (\d+) (\d+)\]/.exec(signed.toString('latin1'))!.slice(1).map(Number);
    // The title in /Info (pdf-lib writes it as UTF-16BE hex): 'S' (0053) becomes 'T' (0054).
    const at = signed.indexOf('FEFF0053');
    expect(at).toBeGreaterThan(0);
    expect(at < range[0]! || at > range[1]!).toBe(true);
    const tampered = Buffer.from(signed);
    tampered[at + 7] = 0x34;
    const tamperedReport = await pdfsig(tampered, 'tampered.pdf');
    expect(validationLine(tamperedReport)).not.toBe('Signature is Valid.');
    expect(validationLine(tamperedReport)).toMatch(/digest mismatch|invalid/i);

    const appended = Buffer.concat([signed, Buffer.from('\n% appended after the signature\n')]);
    expect(await pdfsig(appended, 'appended.pdf')).not.toMatch(/^\s*- Total document signed/m);
  });

  it('refuses an expired certificate before making anything', async () => {
    const expired = selfSigned({
      cn: 'Expired',
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    await expect(signPdf(letter, expired.p12, expired.password, INFO)).rejects.toMatchObject({
      name: 'CertificateProblem',
      code: 'expired',
    });
    await expect(signPdf(letter, self.p12, 'wrong', INFO)).rejects.toBeInstanceOf(CertificateProblem);
  });
});

describe('readPkcs12', () => {
  it('summarises the signing certificate and its chain', () => {
    const notBefore = new Date('2026-01-01T00:00:00Z');
    const notAfter = new Date('2030-06-30T12:00:00Z');
    const p12 = selfSigned({ cn: 'Summary Test', organisation: 'وزارة الاختبار', notBefore, notAfter });
    const summary = readPkcs12(p12.p12, p12.password, new Date('2027-01-01T00:00:00Z'));
    const x509 = new X509Certificate(p12.certificatePems[0]!);
    expect(summary).toEqual({
      subject: 'CN=Summary Test, O=وزارة الاختبار, C=SA',
      issuer: 'CN=Summary Test, O=وزارة الاختبار, C=SA',
      serial: x509.serialNumber.toUpperCase(),
      notBefore: notBefore.toISOString(),
      notAfter: notAfter.toISOString(),
      sha256Fingerprint: createHash('sha256').update(x509.raw).digest('hex'),
      chainLength: 1,
    });
    const ofChain = readPkcs12(chain.p12, chain.password);
    expect(ofChain.subject).toBe('CN=Sijill Test Signer, O=الإدارة العامة للسجلات, C=SA');
    expect(ofChain.issuer).toBe('CN=Sijill Test Issuing CA, C=SA');
    expect(ofChain.chainLength).toBe(3);
  });

  it('names what is wrong with a file', () => {
    const now = new Date();
    expect(problemOf(() => readPkcs12(self.p12, 'not the password', now))).toBe('wrongPassword');
    expect(
      problemOf(() =>
        readPkcs12(
          new Uint8Array(2048).map((_, i) => (i * 7919) % 256),
          'x',
        ),
      ),
    ).toBe('notPkcs12');
    expect(problemOf(() => readPkcs12(new TextEncoder().encode('%PDF-1.7 not a p12'), 'x'))).toBe(
      'notPkcs12',
    );
    const noKey = certificateOnly();
    expect(problemOf(() => readPkcs12(noKey.p12, noKey.password))).toBe('noPrivateKey');
    const wrongKey = mismatched();
    expect(problemOf(() => readPkcs12(wrongKey.p12, wrongKey.password))).toBe('keyMismatch');
    const encryption = encryptionOnly();
    expect(problemOf(() => readPkcs12(encryption.p12, encryption.password))).toBe('notForSigning');
    const tls = selfSigned({ cn: 'TLS only', extKeyUsage: { serverAuth: true } });
    expect(problemOf(() => readPkcs12(tls.p12, tls.password))).toBe('notForSigning');
    const mail = selfSigned({ cn: 'Mail and TLS', extKeyUsage: { serverAuth: true, emailProtection: true } });
    expect(problemOf(() => readPkcs12(mail.p12, mail.password))).toBe('none');
    expect(problemOf(() => readPkcs12(self.p12, self.password, now))).toBe('none');
  });

  it.skipIf(!existsSync(OPENSSL))(
    'opens what OpenSSL 3 exports (AES-256, PBKDF2), and signs with it',
    async () => {
      const exported = async (password: string, legacy: boolean) => {
        await writeFile(join(dir, 'key.pem'), self.keyPem);
        await writeFile(join(dir, 'cert.pem'), self.certificatePems[0]!);
        const args = [
          'pkcs12',
          '-export',
          '-inkey',
          'key.pem',
          '-in',
          'cert.pem',
          '-passout',
          `pass:${password}`,
        ];
        await promisify(execFile)(OPENSSL, [...args, ...(legacy ? ['-legacy'] : []), '-out', 'out.p12'], {
          cwd: dir,
        });
        return readFile(join(dir, 'out.p12'));
      };
      const modern = await exported('Latin-secret 1', false);
      expect(readPkcs12(modern, 'Latin-secret 1').subject).toBe('CN=Sijill Self-Signed, C=SA');
      expect(problemOf(() => readPkcs12(modern, 'Latin-secret 2'))).toBe('wrongPassword');
      const signed = await signPdf(letter, modern, 'Latin-secret 1', INFO);
      if (existsSync(PDFSIG))
        expect(validationLine(await pdfsig(signed, 'openssl.pdf'))).toBe('Signature is Valid.');
      // A non-Latin password, in both formats (the newer takes it as UTF-8: see signature.ts).
      expect(readPkcs12(await exported('كلمة سر', true), 'كلمة سر').chainLength).toBe(1);
      const arabic = await exported('كلمة سر', false);
      expect(readPkcs12(arabic, 'كلمة سر').chainLength).toBe(1);
      expect(problemOf(() => readPkcs12(arabic, 'كلمة سرّ'))).toBe('wrongPassword');
      const signedArabic = await signPdf(letter, arabic, 'كلمة سر', INFO);
      if (existsSync(PDFSIG))
        expect(validationLine(await pdfsig(signedArabic, 'arabic.pdf'))).toBe('Signature is Valid.');
    },
  );

  it('checks the validity dates against `now`', () => {
    const p12 = selfSigned({
      cn: 'Dated',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
    });
    const at = (iso: string) => problemOf(() => readPkcs12(p12.p12, p12.password, new Date(iso)));
    expect(at('2025-12-31T23:59:59Z')).toBe('notYetValid');
    expect(at('2026-06-01T00:00:00Z')).toBe('none');
    expect(at('2027-01-01T00:00:01Z')).toBe('expired');
  });
});

describe('secrets at rest', () => {
  const key = new Uint8Array(32).map((_, i) => i + 1);
  const plain = new TextEncoder().encode('the PKCS#12 password — كلمة السر');

  it('seals and opens; every sealing differs (a fresh IV)', () => {
    const sealed = sealSecret(key, plain);
    expect(sealed[0]).toBe(1);
    expect(sealed.length).toBe(1 + 12 + 16 + plain.length);
    expect(Buffer.from(openSecret(key, sealed))).toEqual(Buffer.from(plain));
    expect(Buffer.from(sealSecret(key, plain))).not.toEqual(Buffer.from(sealed));
  });

  it('refuses a flipped byte anywhere, a wrong key or a key of the wrong length', () => {
    const sealed = sealSecret(key, plain);
    for (const at of [0, 1, 13, 29, sealed.length - 1]) {
      const tampered = Uint8Array.from(sealed);
      tampered[at]! ^= 0x01;
      expect(() => openSecret(key, tampered), `byte ${at}`).toThrow();
    }
    expect(() => openSecret(key, sealed.subarray(0, 20))).toThrow(/truncated/);
    const other = Uint8Array.from(key);
    other[0] = 99;
    expect(() => openSecret(other, sealed)).toThrow(/wrong key/);
    expect(() => sealSecret(new Uint8Array(16), plain)).toThrow(/32 bytes/);
  });

  it('loadSecretsKey makes secrets.key once (mode 0600) and returns the same key after', async () => {
    const dataDir = join(dir, 'data', 'server');
    const first = await loadSecretsKey(dataDir, {});
    expect(first).toHaveLength(32);
    const file = join(dataDir, 'secrets.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const written = await readFile(file, 'utf8');
    expect(Buffer.from(await loadSecretsKey(dataDir, {}))).toEqual(Buffer.from(first));
    expect(await readFile(file, 'utf8')).toBe(written);
    // Sealed with the file's key, opened with the same key given as SIJILL_SECRETS_KEY.
    const sealed = sealSecret(first, plain);
    const fromEnv = await loadSecretsKey(join(dir, 'elsewhere'), { SIJILL_SECRETS_KEY: written.trim() });
    expect(Buffer.from(openSecret(fromEnv, sealed))).toEqual(Buffer.from(plain));
    expect(existsSync(join(dir, 'elsewhere', 'secrets.key'))).toBe(false);
  });

  it('loadSecretsKey gives every first caller the same key', async () => {
    const dataDir = join(dir, 'race');
    const keys = await Promise.all(Array.from({ length: 6 }, () => loadSecretsKey(dataDir, {})));
    for (const key of keys) expect(Buffer.from(key)).toEqual(Buffer.from(keys[0]!));
    expect(await readdir(dataDir)).toEqual(['secrets.key']);
  });

  it('refuses a SIJILL_SECRETS_KEY that is not the base64 of 32 bytes', async () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    await expect(loadSecretsKey(dir, { SIJILL_SECRETS_KEY: short })).rejects.toThrow(
      /SIJILL_SECRETS_KEY must be the base64 of 32 bytes/,
    );
    await expect(loadSecretsKey(dir, { SIJILL_SECRETS_KEY: 'not base64 at all!' })).rejects.toThrow(
      /SIJILL_SECRETS_KEY/,
    );
  });
});
