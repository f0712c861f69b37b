/**
 * Signing certificates made at test time (nothing committed): a self-signed one with the dates asked for,
 * a small CA (root → intermediate → leaf), and a PKCS#12 holding a certificate but no key — each wrapped
 * as the PKCS#12 an organisation uploads (3DES, as forge writes it), with its password and PEMs.
 * RSA-2048 keys come from node:crypto (forge's own key generation takes seconds) and are made once per
 * test file, then reused.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface TestPkcs12 {
  p12: Uint8Array;
  password: string;
  /** The signing certificate first, then its chain up to the root. */
  certificatePems: string[];
  keyPem: string;
}

const keys: forge.pki.rsa.KeyPair[] = [];
/** The i-th RSA-2048 key pair of this test file (made on first use). */
function keyPair(i: number): forge.pki.rsa.KeyPair {
  while (keys.length <= i) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    keys.push({
      privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
      publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    });
  }
  return keys[i]!;
}

const DAY = 86_400_000;
export const PASSWORD = 'كلمة-سر 123';

interface CertificateOptions {
  cn: string;
  /** Added to the subject as a UTF8String organisation (Arabic allowed). */
  organisation?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** The certificate's key pair (an index into this file's keys). */
  key: number;
  /** Who signs it; itself when absent. */
  issuer?: { cert: forge.pki.Certificate; key: number };
  ca?: boolean;
  /** Key usage bits; digitalSignature + nonRepudiation for an end entity, keyCertSign for a CA. */
  keyUsage?: Record<string, boolean>;
  extKeyUsage?: Record<string, boolean>;
}

function certificate(options: CertificateOptions): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  const pair = keyPair(options.key);
  cert.publicKey = pair.publicKey;
  // Positive (first bit clear) and 16 bytes, as CAs make them.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + 365 * DAY);
  const subject: forge.pki.CertificateField[] = [{ shortName: 'C', value: 'SA' }];
  if (options.organisation)
    subject.push({
      shortName: 'O',
      value: options.organisation,
      // A UTF8String (forge's types call valueTagClass a Class; forge reads it as the tag type).
      valueTagClass: forge.asn1.Type.UTF8 as number as forge.asn1.Class,
    });
  subject.push({ shortName: 'CN', value: options.cn });
  cert.setSubject(subject);
  cert.setIssuer(options.issuer ? options.issuer.cert.subject.attributes : subject);
  const extensions: object[] = [
    { name: 'basicConstraints', cA: options.ca ?? false, critical: true },
    {
      name: 'keyUsage',
      critical: true,
      ...(options.keyUsage ??
        (options.ca
          ? { keyCertSign: true, cRLSign: true }
          : { digitalSignature: true, nonRepudiation: true })),
    },
    { name: 'subjectKeyIdentifier' },
  ];
  if (options.extKeyUsage) extensions.push({ name: 'extKeyUsage', ...options.extKeyUsage });
  cert.setExtensions(extensions);
  cert.sign(keyPair(options.issuer?.key ?? options.key).privateKey, forge.md.sha256.create());
  return cert;
}

/** The PKCS#12 of `key` (or none) with `certs` (the signing one first), as forge writes it (3DES). */
export function pkcs12Of(
  key: number | null,
  certs: forge.pki.Certificate[],
  password = PASSWORD,
): TestPkcs12 {
  const asn1 = forge.pkcs12.toPkcs12Asn1(key === null ? null : keyPair(key).privateKey, certs, password, {
    algorithm: '3des',
  });
  return {
    p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'),
    password,
    certificatePems: certs.map((cert) => forge.pki.certificateToPem(cert)),
    keyPem: key === null ? '' : forge.pki.privateKeyToPem(keyPair(key).privateKey),
  };
}

/** A self-signed signing certificate (valid from yesterday for a year unless told otherwise). */
export function selfSigned(
  options: Partial<Omit<CertificateOptions, 'issuer' | 'key'>> & { cn: string },
): TestPkcs12 {
  return pkcs12Of(0, [certificate({ ...options, key: 0 })]);
}

/** A small CA: root → intermediate → leaf (the leaf signs; the file holds all three). */
export function caChain(leafCn = 'Sijill Test Signer'): TestPkcs12 {
  const root = certificate({ cn: 'Sijill Test Root CA', key: 1, ca: true });
  const intermediate = certificate({
    cn: 'Sijill Test Issuing CA',
    key: 2,
    ca: true,
    issuer: { cert: root, key: 1 },
  });
  const leaf = certificate({
    cn: leafCn,
    organisation: 'الإدارة العامة للسجلات',
    key: 3,
    issuer: { cert: intermediate, key: 2 },
    extKeyUsage: { emailProtection: true },
  });
  return pkcs12Of(3, [leaf, intermediate, root]);
}

/** A PKCS#12 holding a certificate but no private key. */
export function certificateOnly(cn = 'No Key'): TestPkcs12 {
  return pkcs12Of(null, [certificate({ cn, key: 0 })]);
}

/** A certificate whose key usage allows only encryption, not signatures. */
export function encryptionOnly(cn = 'Encryption Only'): TestPkcs12 {
  return pkcs12Of(0, [certificate({ cn, key: 0, keyUsage: { keyEncipherment: true } })]);
}

/** A PKCS#12 whose certificate is not its key's (key 0, certificate of key 1). */
export function mismatched(cn = 'Mismatched'): TestPkcs12 {
  return pkcs12Of(0, [certificate({ cn, key: 1 })]);
}
