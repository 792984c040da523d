import { X509Certificate } from 'node:crypto';
import { badRequest } from '../../model/index.js';

/**
 * Checks an identity provider's signing certificate: one X.509 certificate in PEM that node's
 * crypto reads, and not expired at `now`. Returns it trimmed.
 */
export function checkCertificate(pem: string, field: string, now: Date): string {
  const text = pem.trim();
  if (!/^-----BEGIN CERTIFICATE-----\r?\n[\s\S]+\r?\n-----END CERTIFICATE-----$/.test(text)) {
    throw badRequest(`${field} must be one X.509 certificate in PEM (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)`);
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(text);
  } catch (error) {
    throw badRequest(`${field} is not a readable X.509 certificate: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (Date.parse(cert.validTo) <= now.getTime()) throw badRequest(`${field} expired on ${new Date(cert.validTo).toISOString()}`);
  return text;
}
