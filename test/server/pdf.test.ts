import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { docPage, storeMarkdown, writeTree } from '../helpers/content.js';

/**
 * The text a PDF shows, read the way a viewer would: every content stream inflated (pdfkit
 * compresses them), then the hex strings of its text operators decoded, kerning left out.
 */
function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const texts: string[] = [];
  const streams = /(?<!end)stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streams.exec(raw)) !== null) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const data = bytes.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(data).toString('latin1');
    } catch {
      content = data.toString('latin1');
    }
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      texts.push([...op[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''));
    }
    streams.lastIndex = end;
  }
  return texts.join('\n');
}

describe.each(testDialects())('change request PDF (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  let crId: string;
  let crNumber: number;
  beforeAll(async () => {
    s = await startServer(dialect);
    spaceId = (await createSpace(s)).id;
    const cr = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Docs for print' } });
    expect(cr.status).toBe(201);
    crId = cr.body.id;
    crNumber = cr.body.number;
    const guide = await storeMarkdown(
      s,
      '## Preparing\n\nGather the tools.\n\n- hammer\n- nails\n  - small ones\n\n1. measure\n2. cut\n\n```\nmake build\n```\n',
    );
    await writeTree(
      s,
      { spaceId, changeRequestId: crId },
      {
        pages: [
          docPage('welcome', 'Welcome aboard', { document: await storeMarkdown(s, 'Hello “reader” 😀.\n') }),
          docPage('guide', 'Building guide', { document: guide, pages: [docPage('child', 'Child page')] }),
        ],
        files: [],
        variables: {},
        reusableContents: [],
      },
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  const pdfUrl = async (query = '') => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf${query}`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', 200);
    return res.body.url as string;
  };
  const download = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('answers a URL that downloads the whole content as a PDF without a bearer token', async () => {
    const url = await pdfUrl();
    expect(url.startsWith(`${s.url}/v1/pdf/`)).toBe(true);
    const pdf = await download(url);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.bytes);
    for (const line of [
      'Welcome aboard',
      'Hello "reader" ?.',
      'Building guide',
      'Preparing',
      'Gather the tools.',
      '\u00b7 hammer',
      '\u00b7 small ones',
      '1. measure',
      '2. cut',
      'make build',
      'Child page',
    ]) {
      expect(text).toContain(line);
    }
    expect(text.indexOf('Welcome aboard')).toBeLessThan(text.indexOf('Building guide'));
    expect(text.indexOf('Building guide')).toBeLessThan(text.indexOf('Child page'));
  });

  it('renders one page with only=true, a page and its subpages with page alone, by CR number too', async () => {
    const only = pdfText((await download(await pdfUrl('?only=true&page=guide'))).bytes);
    expect(only).toContain('Building guide');
    expect(only).not.toContain('Child page');
    expect(only).not.toContain('Welcome aboard');
    const subtree = pdfText((await download(await pdfUrl('?page=guide'))).bytes);
    expect(subtree).toContain('Child page');
    expect(subtree).not.toContain('Welcome aboard');
    const byNumber = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crNumber}/pdf`);
    expect(byNumber.status).toBe(200);
    // Same content, same bytes: the PDF is stored once.
    expect(byNumber.body.url.split('?')[0]).toBe((await pdfUrl()).split('?')[0]);
  });

  it('refuses a tampered or expired link and a link to another blob', async () => {
    const url = new URL(await pdfUrl());
    const tampered = new URL(url);
    tampered.searchParams.set(
      'signature',
      url.searchParams.get('signature')!.replace(/^./, (c) => (c === '0' ? '1' : '0')),
    );
    expect((await download(tampered.href)).status).toBe(403);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await download(later.href)).status).toBe(403);
    const other = new URL(url);
    other.pathname = other.pathname.replace(/[0-9a-f]{64}$/, 'a'.repeat(64));
    expect((await download(other.href)).status).toBe(403);
    expect((await download(`${url.origin}${url.pathname}`)).status).toBe(400);

    expect((await download(url.href)).status).toBe(200);
    s.clock.advance(3601 * 1000);
    const expired = await fetch(url.href);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ error: { code: 403, message: expect.stringMatching(/expired/) } });
  });

  it('is 404 for a page not in the change request, an unknown change request or space, and hidden spaces', async () => {
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf?page=nope`), 404, /nope/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf?only=true&page=nope`), 404, /nope/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/999/pdf`), 404);
    expectError(await s.request('GET', `/v1/spaces/nope/change-requests/${crId}/pdf`), 404);
    const outsider = await s.organization();
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf`, { token: outsider.adminToken }), 404);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf?only=true`), 400, /page/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf?only=maybe`), 400, /only/);
  });

  it('still needs a bearer token everywhere else', async () => {
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf`, { token: null }), 401);
    expectError(await s.request('GET', '/v1/pdf', { token: null }), 401);
    expectError(await s.request('GET', `/v1/pdf/${'a'.repeat(64)}/more`, { token: null }), 401);
  });
});
