import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import forge from 'node-forge';

export interface McpbSignature {
  /**
   * `signed`: its signature verifies and its certificate leads to a root this
   * system's Node trusts; `self-signed`: it verifies, by a certificate that
   * vouches for itself; `untrusted`: it verifies, by a certificate nobody
   * trusted vouches for (or one out of date); `mismatch`: it does not verify.
   */
  status: 'signed' | 'self-signed' | 'untrusted' | 'unsigned' | 'mismatch';
  publisher?: string;
  issuer?: string;
}

const MESSAGE_DIGEST = forge.pki.oids.messageDigest!;
const SHA256 = forge.pki.oids.sha256!;

/**
 * Checks an MCP bundle's detached PKCS#7 signature (as `mcpb sign` makes
 * it) against the bytes it signs. The official package parses the same
 * block but cannot verify it (node-forge has no PKCS#7 verification, so it
 * calls every signed bundle unsigned); here node-forge reads the ASN.1 and
 * Node's crypto checks the digest, the signature and the chain.
 */
export function checkMcpbSignature(content: Uint8Array, pkcs7: Uint8Array | undefined, now: Date): McpbSignature {
  if (!pkcs7) return { status: 'unsigned' };
  try {
    // Reading the signed data captures its (first) signer's fields too: digest algorithm, attributes, signature.
    const message = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(forge.util.binary.raw.encode(pkcs7))) as forge.pkcs7.PkcsSignedData & {
      rawCapture: { digestAlgorithm?: string; authenticatedAttributes?: forge.asn1.Asn1[]; signature?: string };
    };
    const captured = message.rawCapture;
    const certificates = message.certificates.map((certificate) => new X509Certificate(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary')));
    const signing = certificates[0];
    if (!signing || !captured.digestAlgorithm || !captured.signature) return { status: 'mismatch' };
    if (forge.asn1.derToOid(captured.digestAlgorithm) !== SHA256) return { status: 'mismatch' };
    const attributes = captured.authenticatedAttributes ?? [];
    const digest = attributes.map(attributeValue).find((attribute) => attribute?.type === MESSAGE_DIGEST)?.value;
    if (!digest || !Buffer.from(digest, 'binary').equals(createHash('sha256').update(content).digest())) return { status: 'mismatch' };
    // The signature is over the attributes as a DER SET OF (RFC 5652 §5.4), not as the [0] they travel in.
    const signedAttributes = forge.asn1.toDer(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes)).getBytes();
    const signature = Buffer.from(captured.signature, 'binary');
    if (!verifySignature('sha256', Buffer.from(signedAttributes, 'binary'), signing.publicKey, signature)) return { status: 'mismatch' };
    const names = { publisher: commonName(signing.subject), issuer: commonName(signing.issuer) };
    return { status: trustOf(signing, certificates.slice(1), now), ...names };
  } catch {
    return { status: 'mismatch' };
  }
}

function attributeValue(attribute: forge.asn1.Asn1): { type: string; value: string } | null {
  const [type, set] = attribute.value as forge.asn1.Asn1[];
  const first = (set?.value as forge.asn1.Asn1[] | undefined)?.[0];
  if (!type || !first || typeof first.value !== 'string') return null;
  return { type: forge.asn1.derToOid(type.value as string), value: first.value };
}

function commonName(distinguished: string): string {
  return /(?:^|\n)CN=([^\n]*)/.exec(distinguished)?.[1] ?? distinguished;
}

let roots: X509Certificate[] | undefined;

function trustOf(signing: X509Certificate, intermediates: X509Certificate[], now: Date): McpbSignature['status'] {
  const inDate = (certificate: X509Certificate) => Date.parse(certificate.validFrom) <= now.getTime() && now.getTime() <= Date.parse(certificate.validTo);
  if (!inDate(signing)) return 'untrusted';
  if (signing.checkIssued(signing) && signing.verify(signing.publicKey)) return 'self-signed';
  roots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  let current = signing;
  for (let depth = 0; depth < 8; depth++) {
    const root = roots.find((candidate) => current.checkIssued(candidate) && current.verify(candidate.publicKey));
    if (root) return inDate(root) ? 'signed' : 'untrusted';
    const next = intermediates.find((candidate) => candidate !== current && current.checkIssued(candidate) && current.verify(candidate.publicKey));
    if (!next || !inDate(next)) return 'untrusted';
    current = next;
  }
  return 'untrusted';
}
