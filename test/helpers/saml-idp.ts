import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing.js';

const read = (name: string) => readFileSync(new URL(`./saml/${name}`, import.meta.url), 'utf8');

/** A test identity provider's key pair and certificate (made with openssl, valid until 2126). */
export const IDP = {
  key: read('idp-key.pem'),
  cert: read('idp-cert.pem'),
  entityID: 'https://idp.example.test/metadata',
  ssoURL: 'https://idp.example.test/sso',
};
/** Another key pair: what a forger who does not hold the provider's key would sign with. */
export const FORGER = { key: read('forger-key.pem'), cert: read('forger-cert.pem') };

const ASSERTION = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";

export interface ResponseOptions {
  email: string;
  name?: string;
  audience: string;
  acsURL: string;
  issuer?: string;
  inResponseTo?: string;
  /** @default now - 1 minute */
  notBefore?: Date;
  /** @default now + 5 minutes */
  notOnOrAfter?: Date;
  /** Signing key; null leaves the response unsigned. @default IDP */
  signer?: { key: string; cert: string } | null;
  /** Rewrites the XML after signing. */
  tamper?: (xml: string) => string;
}

const id = () => `_${randomBytes(16).toString('hex')}`;

/** A SAML 2.0 Response with one assertion, signed as an identity provider signs it; base64 for the POST binding. */
export function samlResponse(o: ResponseOptions): string {
  const now = new Date();
  const notBefore = (o.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const issuer = o.issuer ?? IDP.entityID;
  const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  let xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${o.acsURL}"${irt}>` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    `<saml:Assertion ID="${id()}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${o.acsURL}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${o.email}</saml:AttributeValue></saml:Attribute>` +
    `<saml:Attribute Name="displayName"><saml:AttributeValue>${o.name ?? 'Signed In'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    '</saml:Assertion></samlp:Response>';
  const signer = o.signer === undefined ? IDP : o.signer;
  if (signer) {
    xml = signSamlPost(xml, ASSERTION, {
      privateKey: signer.key,
      publicCert: signer.cert,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
  }
  if (o.tamper) xml = o.tamper(xml);
  return Buffer.from(xml, 'utf8').toString('base64');
}

/** The AuthnRequest a start URL carries (HTTP-Redirect binding: deflated, base64, in `SAMLRequest`). */
export function authnRequestOf(location: string): { xml: string; id: string; relayState: string | null } {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  return { xml, id: /\sID="([^"]+)"/.exec(xml)![1]!, relayState: url.searchParams.get('RelayState') };
}
