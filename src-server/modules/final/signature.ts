/**
 * The organisation's signing certificate and the digital signature of a letter's final PDF (issue 27).
 * Pure functions — no database, no HTTP: the caller keeps the uploaded PKCS#12 and its password sealed
 * at rest (sealSecret / openSecret, key from loadSecretsKey) and hands them here to sign.
 *
 * The PKCS#12 is read with node-forge (the same reader @signpdf/signer-p12 uses, so a file that passes
 * readPkcs12 is a file the signer can open); the certificate facts come from Node's own X509Certificate.
 * The signature is a detached CMS made by @signpdf/signer-p12 in a placeholder added by
 * @signpdf/placeholder-pdf-lib, declared with SubFilter ETSI.CAdES.detached (PAdES). The CMS carries what
 * signer-p12 puts in it: every certificate of the file, SHA-256, signed attributes contentType,
 * signingTime and messageDigest — not the ESS signing-certificate-v2 attribute that PAdES B-B also asks
 * for (forge cannot add other attributes), so a strict PAdES validator may call it a CMS/PKCS#7
 * signature rather than B-B; readers (Acrobat, poppler) verify it either way.
 */
import {
  X509Certificate,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  randomBytes,
} from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { SignPdf } from '@signpdf/signpdf';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';

export interface CertificateSummary {
  /** The signing certificate's subject, most specific first: 'CN=…, O=…, C=SA'. */
  subject: string;
  issuer: string;
  /** Serial number, upper-case hex. */
  serial: string;
  /** ISO 8601 instants. */
  notBefore: string;
  notAfter: string;
  /** SHA-256 of the certificate's DER, lower-case hex without separators. */
  sha256Fingerprint: string;
  /** Certificates the signature will carry: the signing one and the rest of the file's chain. */
  chainLength: number;
}

export type CertificateProblemCode =
  | 'wrongPassword'
  | 'notPkcs12'
  | 'noPrivateKey'
  | 'expired'
  | 'notYetValid'
  | 'keyMismatch'
  | 'notForSigning';

/** Why an uploaded PKCS#12 cannot sign; `code` is what the screens translate. */
export class CertificateProblem extends Error {
  constructor(
    public code: CertificateProblemCode,
    message: string,
  ) {
    super(message);
    this.name = 'CertificateProblem';
  }
}

/** What signing needs beyond the summary: the placeholder is sized from the certificates carried. */
interface OpenedPkcs12 {
  summary: CertificateSummary;
  /** Bytes the CMS will take at most (certificates, signature value, structure). */
  signatureBytes: number;
}

// The PKCS#12 bag types (forge's oid table is typed as a plain record: these are its entries).
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const CERT_BAG = '1.2.840.113549.1.12.10.1.3';

const binary = (bytes: Uint8Array) => Buffer.from(bytes).toString('binary');
const certificateDer = (cert: forge.pki.Certificate) =>
  Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');

/** Node prints a name one attribute a line, least specific first; one line, most specific first. */
const oneLineName = (name: string) => name.split('\n').filter(Boolean).reverse().join(', ');

/** Extended key usages a PDF signing certificate may carry (what Acrobat accepts, plus documentSigning). */
const SIGNING_USAGES = new Set([
  '1.3.6.1.5.5.7.3.4', // emailProtection
  '1.3.6.1.5.5.7.3.3', // codeSigning
  '1.3.6.1.5.5.7.3.36', // documentSigning (RFC 9336)
  '1.2.840.113583.1.1.5', // Adobe Authentic Documents Trust
  '1.3.6.1.4.1.311.10.3.12', // Microsoft document signing
  '2.5.29.37.0', // anyExtendedKeyUsage
]);

function openPkcs12(p12: Uint8Array, password: string, now: Date): OpenedPkcs12 {
  let pfx: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(binary(p12));
    pfx = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // forge checks the MAC with the password first; a wrong one fails there (or, in a file without a
    // MAC, when the decrypted bags turn out to be noise).
    if (/Invalid password|MAC could not be verified/i.test(message))
      throw new CertificateProblem('wrongPassword', 'The password does not open this certificate file.');
    if (/private key/i.test(message))
      throw new CertificateProblem(
        'notPkcs12',
        `The key in this file cannot be read (Sijill signs with RSA keys): ${message}`,
      );
    throw new CertificateProblem('notPkcs12', `Not a PKCS#12 (.p12/.pfx) file: ${message}`);
  }

  // signer-p12 takes its key from the password-protected (shrouded) key bag only: so does this.
  const keys = (pfx.getBags({ bagType: SHROUDED_KEY_BAG })[SHROUDED_KEY_BAG] ?? []).flatMap((bag) =>
    bag.key ? [bag.key] : [],
  );
  const certs = (pfx.getBags({ bagType: CERT_BAG })[CERT_BAG] ?? []).flatMap((bag) =>
    bag.cert ? [bag.cert] : [],
  );
  const key = keys[0];
  if (!key) throw new CertificateProblem('noPrivateKey', 'The file holds no private key to sign with.');
  if (!certs.length) throw new CertificateProblem('keyMismatch', 'The file holds no certificate.');

  const privateKey = createPrivateKey(forge.pki.privateKeyToPem(key));
  const ders = certs.map(certificateDer);
  const signingIndex = ders.findIndex((der) => new X509Certificate(der).checkPrivateKey(privateKey));
  if (signingIndex < 0)
    throw new CertificateProblem('keyMismatch', 'No certificate in the file belongs to its private key.');
  const x509 = new X509Certificate(ders[signingIndex]!);
  const forgeCert = certs[signingIndex]!;

  if (now < x509.validFromDate)
    throw new CertificateProblem(
      'notYetValid',
      `The certificate is valid from ${x509.validFromDate.toISOString()}.`,
    );
  if (now > x509.validToDate)
    throw new CertificateProblem('expired', `The certificate expired on ${x509.validToDate.toISOString()}.`);

  // A key usage extension, when present, must allow signatures (digitalSignature or nonRepudiation).
  const keyUsage = forgeCert.getExtension('keyUsage') as
    { digitalSignature?: boolean; nonRepudiation?: boolean } | undefined;
  if (keyUsage && !keyUsage.digitalSignature && !keyUsage.nonRepudiation)
    throw new CertificateProblem('notForSigning', 'The certificate’s key usage does not allow signing.');
  // Node names the extended key usages `keyUsage` (undefined when the extension is absent).
  const extended = x509.keyUsage;
  if (extended?.length && !extended.some((oid) => SIGNING_USAGES.has(oid)))
    throw new CertificateProblem(
      'notForSigning',
      'The certificate’s extended key usage does not cover signing documents.',
    );

  const modulusBytes = Math.ceil((privateKey.asymmetricKeyDetails?.modulusLength ?? 4096) / 8);
  return {
    summary: {
      subject: oneLineName(x509.subject),
      issuer: oneLineName(x509.issuer),
      serial: x509.serialNumber.toUpperCase(),
      notBefore: x509.validFromDate.toISOString(),
      notAfter: x509.validToDate.toISOString(),
      sha256Fingerprint: createHash('sha256').update(ders[signingIndex]!).digest('hex'),
      chainLength: certs.length,
    },
    signatureBytes: ders.reduce((sum, der) => sum + der.length, 0) + modulusBytes + 2048,
  };
}

/** Reads an uploaded PKCS#12 (bytes + password): its signing certificate and chain; throws CertificateProblem. */
export function readPkcs12(p12: Uint8Array, password: string, now: Date = new Date()): CertificateSummary {
  return openPkcs12(p12, password, now).summary;
}

/**
 * A PDF text string for pdf-lib's PDFString, which writes each character's code as one byte and escapes
 * nothing: ASCII stays as it is, anything else becomes UTF-16BE with its byte-order mark (PDF 32000
 * §7.9.2.2), each byte one character; backslash, parentheses and line ends are escaped — UTF-16 bytes of
 * Arabic hold '(' and ')' (ب is 06 28).
 */
export function pdfTextString(text: string): string {
  let bytes = text;
  if (!/^[\x20-\x7e]*$/.test(text)) {
    bytes = '\xfe\xff';
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      bytes += String.fromCharCode(unit >> 8, unit & 0xff);
    }
  }
  return bytes.replace(
    /[\\()\r\n]/g,
    (c) => ({ '\\': '\\\\', '(': '\\(', ')': '\\)', '\r': '\\r', '\n': '\\n' })[c]!,
  );
}

/**
 * Signs the PDF with a detached CMS. SubFilter ETSI.CAdES.detached (PAdES; @signpdf/placeholder-pdf-lib
 * supports it) — see the module comment for what the CMS holds. The certificate is read first: an
 * expired, not yet valid or unreadable one never signs. The document is saved again in full (pdf-lib),
 * so a PDF that was already signed would lose its earlier signatures: sign Sijill's own final PDF.
 */
export async function signPdf(
  pdf: Uint8Array,
  p12: Uint8Array,
  password: string,
  info: { reason: string; name: string; location: string; contactInfo?: string; signingTime?: Date },
): Promise<Uint8Array> {
  const { signatureBytes } = openPkcs12(p12, password, new Date());
  const signingTime = info.signingTime ?? new Date();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: pdfTextString(info.reason),
    name: pdfTextString(info.name),
    location: pdfTextString(info.location),
    contactInfo: pdfTextString(info.contactInfo ?? ''),
    signingTime,
    // Hex digits reserved for the CMS: twice its bytes at most (a 3-certificate chain of 2048-bit RSA
    // needs about 8 000), and never less than 16 384.
    signatureLength: Math.max(16_384, 2 * signatureBytes),
    subFilter: 'ETSI.CAdES.detached',
    appName: 'Sijill',
  });
  // No object streams: signpdf finds the placeholder by searching the bytes.
  const prepared = await doc.save({ useObjectStreams: false });
  const signer = new P12Signer(Buffer.from(p12), { passphrase: password });
  return new SignPdf().sign(Buffer.from(prepared), signer, signingTime);
}

// ------------------------------------------------------------------------------------ secrets at rest

const ENVELOPE_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

function checkKey(key: Uint8Array) {
  if (key.length !== KEY_BYTES)
    throw new Error(`The secrets key must be ${KEY_BYTES} bytes, not ${key.length}.`);
}

/**
 * AES-256-GCM: [version 1][12-byte IV][16-byte tag][ciphertext]. The version byte is authenticated too
 * (additional data), so a later format cannot be passed off as this one.
 */
export function sealSecret(key: Uint8Array, plain: Uint8Array): Uint8Array {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const version = Buffer.from([ENVELOPE_VERSION]);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(version);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([version, iv, cipher.getAuthTag(), ciphertext]);
}

/** Opens what sealSecret sealed; throws when the envelope was tampered with or the key is not its key. */
export function openSecret(key: Uint8Array, sealed: Uint8Array): Uint8Array {
  checkKey(key);
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES) throw new Error('The sealed secret is truncated.');
  if (sealed[0] !== ENVELOPE_VERSION) throw new Error(`Unknown sealed secret version ${sealed[0]}.`);
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(sealed.subarray(0, 1));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new Error('The sealed secret cannot be opened: wrong key, or it was altered.');
  }
}

/** Strict base64 of exactly 32 bytes (Buffer.from would quietly skip stray characters). */
function keyFromBase64(text: string, where: string): Uint8Array {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES)
    throw new Error(`${where} must be the base64 of ${KEY_BYTES} bytes (e.g. \`openssl rand -base64 32\`).`);
  return key;
}

/**
 * The server's secrets key: SIJILL_SECRETS_KEY (base64 of 32 bytes) when given, else `secrets.key` in
 * `dataDir`, made on first use (32 random bytes, written as base64 so it can be copied into
 * SIJILL_SECRETS_KEY, mode 0600). Losing it loses the sealed certificate: back it up with the data.
 */
export async function loadSecretsKey(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Uint8Array> {
  const fromEnv = env.SIJILL_SECRETS_KEY;
  if (fromEnv !== undefined && fromEnv !== '') return keyFromBase64(fromEnv, 'SIJILL_SECRETS_KEY');
  const file = join(dataDir, 'secrets.key');
  await mkdir(dataDir, { recursive: true });
  try {
    // 'wx': only the first caller creates it; a concurrent second one reads what the first wrote.
    const handle = await open(file, 'wx', 0o600);
    try {
      const key = randomBytes(KEY_BYTES);
      await handle.writeFile(`${key.toString('base64')}\n`);
      await handle.sync();
      return key;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return keyFromBase64(await readFile(file, 'utf8'), file);
}
