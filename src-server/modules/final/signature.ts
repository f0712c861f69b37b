/**
 * The organisation's signing certificate and the digital signature of a letter's final PDF (issue 27).
 * Pure functions — no database, no HTTP: the caller keeps the uploaded PKCS#12 and its password sealed
 * at rest (sealSecret / openSecret, key from loadSecretsKey) and hands them here to sign.
 *
 * The PKCS#12 is read with node-forge (the reader @signpdf/signer-p12 uses too); the certificate facts
 * come from Node's own X509Certificate. The signature is a detached CMS in a placeholder added by
 * @signpdf/placeholder-pdf-lib and filled by @signpdf/signpdf, declared with SubFilter
 * ETSI.CAdES.detached: PAdES baseline B-B. The CMS is forge's SignedData, as @signpdf/signer-p12 makes
 * it, with what B-B asks beyond it (ETSI EN 319 142-1 §6.3): the ESS signing-certificate-v2 attribute
 * (binding the signer's certificate to the signature) and no signing-time attribute (the time is the
 * dictionary's /M). forge cannot write that attribute, so PadesSigner adds it to the signed attributes
 * before they are signed (by Node's crypto, as is the document's digest) — forge writes all the rest.
 */
import {
  X509Certificate,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  randomBytes,
  sign as rsaSign,
  type KeyObject,
} from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf, Signer } from '@signpdf/signpdf';
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
  key: KeyObject;
  /** The signing certificate first, then the rest of the file's certificates as they came. */
  certificates: forge.pki.Certificate[];
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

/**
 * forge's PKCS#12 reader, made to open OpenSSL 3's files with a non-Latin password too: OpenSSL 3
 * encrypts with PBES2, whose PBKDF2 takes the password as UTF-8, while forge hands it the characters as
 * bytes. forge checks the MAC first (PKCS#12's own key derivation, which it does right): when that
 * accepted the password and decrypting failed, the password is right, and the file is read again
 * without its MAC, with the password's UTF-8 bytes.
 */
function parsePkcs12(p12: Uint8Array, password: string): forge.pkcs12.Pkcs12Pfx {
  try {
    return forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(binary(p12)), false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (!/decrypt/i.test(message) || !/[\u0080-\uffff]/.test(password)) throw error;
    const withoutMac = forge.asn1.fromDer(binary(p12));
    (withoutMac.value as forge.asn1.Asn1[]).splice(2);
    return forge.pkcs12.pkcs12FromAsn1(withoutMac, false, forge.util.encodeUtf8(password));
  }
}

function openPkcs12(p12: Uint8Array, password: string, now: Date): OpenedPkcs12 {
  let pfx: forge.pkcs12.Pkcs12Pfx;
  try {
    pfx = parsePkcs12(p12, password);
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

  // The password-protected (shrouded) key bag, as signer-p12 reads it. forge leaves a key it cannot
  // read (not RSA) undefined.
  const keyBags = pfx.getBags({ bagType: SHROUDED_KEY_BAG })[SHROUDED_KEY_BAG] ?? [];
  const keys = keyBags.flatMap((bag) => (bag.key ? [bag.key] : []));
  const certs = (pfx.getBags({ bagType: CERT_BAG })[CERT_BAG] ?? []).flatMap((bag) =>
    bag.cert ? [bag.cert] : [],
  );
  const key = keys[0];
  if (!key)
    throw new CertificateProblem(
      'noPrivateKey',
      keyBags.length
        ? 'The file’s private key cannot be used: Sijill signs with RSA keys.'
        : 'The file holds no private key to sign with.',
    );
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
    key: privateKey,
    certificates: [forgeCert, ...certs.filter((_, i) => i !== signingIndex)],
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
function pdfTextString(text: string): string {
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
 * Signs the PDF with a detached CMS: PAdES B-B, SubFilter ETSI.CAdES.detached (which
 * @signpdf/placeholder-pdf-lib supports) — see the module comment for what the CMS holds. The
 * certificate is read first: an expired, not yet valid or unreadable one never signs. The document is
 * saved again in full (pdf-lib), so a PDF that was already signed would lose its earlier signatures:
 * sign Sijill's own final PDF. `signingTime` (default now) is the dictionary's /M; validity is checked
 * against the real clock.
 */
export async function signPdf(
  pdf: Uint8Array,
  p12: Uint8Array,
  password: string,
  info: { reason: string; name: string; location: string; contactInfo?: string; signingTime?: Date },
): Promise<Uint8Array> {
  const { signatureBytes, key, certificates } = openPkcs12(p12, password, new Date());
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
  return new SignPdf().sign(Buffer.from(prepared), new PadesSigner(key, certificates));
}

const ID_AA_SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';

/** The parts of forge's SignedData that PadesSigner completes after sign() (not in @types/node-forge). */
interface SignedDataInternals {
  signers: { authenticatedAttributesAsn1: forge.asn1.Asn1 }[];
  signerInfos: forge.asn1.Asn1[];
}

/**
 * The ESS signing-certificate-v2 attribute (RFC 5035): the SHA-256 of the signer's certificate (the
 * default hash, so not named) and its issuer and serial number.
 */
function signingCertificateV2(cert: forge.pki.Certificate): forge.asn1.Asn1 {
  const { asn1 } = forge;
  const { UNIVERSAL, CONTEXT_SPECIFIC } = asn1.Class;
  const hash = createHash('sha256').update(certificateDer(cert)).digest().toString('binary');
  const issuerSerial = asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [
    // GeneralNames: one directoryName, [4] EXPLICIT Name.
    asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(CONTEXT_SPECIFIC, 4, true, [forge.pki.distinguishedNameToAsn1(cert.issuer)]),
    ]),
    asn1.create(UNIVERSAL, asn1.Type.INTEGER, false, forge.util.hexToBytes(cert.serialNumber)),
  ]);
  const essCertIdV2 = asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(UNIVERSAL, asn1.Type.OCTETSTRING, false, hash),
    issuerSerial,
  ]);
  return asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(ID_AA_SIGNING_CERTIFICATE_V2).getBytes()),
    asn1.create(UNIVERSAL, asn1.Type.SET, true, [
      asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [essCertIdV2]),
      ]),
    ]),
  ]);
}

/**
 * @signpdf/signer-p12's signer made PAdES B-B: the same forge SignedData (SHA-256, RSA PKCS#1 v1.5, every
 * certificate of the file), its signed attributes contentType, messageDigest and signing-certificate-v2
 * (no signingTime), sorted as DER sorts a SET OF, signed once they are complete.
 */
class PadesSigner extends Signer {
  constructor(
    private readonly key: KeyObject,
    private readonly certificates: forge.pki.Certificate[],
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const { asn1 } = forge;
    const signer = this.certificates[0]!;
    const p7 = forge.pkcs7.createSignedData();
    // Node hashes the document and makes the RSA signature (forge's JavaScript SHA-256 takes about
    // 80 ms a megabyte): forge gets no content and a stand-in key, and writes the structure.
    p7.content = forge.util.createBuffer('');
    const standIn = { sign: () => '' } as unknown as forge.pki.rsa.PrivateKey;
    for (const cert of this.certificates) p7.addCertificate(cert);
    p7.addSigner({
      key: standIn,
      certificate: signer,
      digestAlgorithm: forge.pki.oids.sha256!,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
        { type: forge.pki.oids.messageDigest! },
      ],
    });
    p7.sign({ detached: true });

    // The signed attributes: the document's digest in messageDigest, signing-certificate-v2 added.
    const internals = p7 as unknown as SignedDataInternals;
    const attributes = internals.signers[0]!.authenticatedAttributesAsn1.value as forge.asn1.Asn1[];
    const documentDigest = createHash('sha256').update(pdfBuffer).digest().toString('binary');
    for (const attribute of attributes) {
      const [type, values] = attribute.value as forge.asn1.Asn1[];
      if (asn1.derToOid(type!.value as string) === forge.pki.oids.messageDigest)
        (values!.value as forge.asn1.Asn1[])[0]!.value = documentDigest;
    }
    attributes.push(signingCertificateV2(signer));
    const der = (node: forge.asn1.Asn1) => asn1.toDer(node).getBytes();
    // DER orders a SET OF by the elements' encodings; verifiers that re-encode (OpenSSL) rely on it.
    attributes.sort((a, b) => (der(a) < der(b) ? -1 : der(a) > der(b) ? 1 : 0));
    const signedAttributes = der(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, attributes));
    const signerInfo = internals.signerInfos[0]!.value as forge.asn1.Asn1[];
    // SignerInfo ends with the signature value (no unsigned attributes here).
    const signatureValue = signerInfo[signerInfo.length - 1]!;
    if (signatureValue.type !== asn1.Type.OCTETSTRING) throw new Error('Unexpected SignerInfo from forge.');
    // RSASSA-PKCS1-v1_5 with SHA-256, as forge declares it in the SignerInfo.
    signatureValue.value = rsaSign('sha256', Buffer.from(signedAttributes, 'binary'), this.key).toString(
      'binary',
    );
    return Buffer.from(der(p7.toAsn1()), 'binary');
  }
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
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (existing !== null) return keyFromBase64(existing, file);
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // Written whole to a file of its own, then linked into place: link fails if secrets.key exists, so
  // of two first callers one wins and the other reads the winner's complete key.
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx', flush: true });
  try {
    await link(draft, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
  return keyFromBase64(await readFile(file, 'utf8'), file);
}
