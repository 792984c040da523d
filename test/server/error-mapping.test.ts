import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandlers } from '../../src/server/errors.js';

/** Database failures that a retry fixes must reach the client as 409, never as 500. */
describe('database errors as answers', () => {
  const app = Fastify();
  installErrorHandlers(app);
  const failWith = (code: string) => () => {
    throw Object.assign(new Error(`database said ${code}`), { code });
  };
  app.get('/unique-pg', failWith('23505'));
  app.get('/unique-sqlite', failWith('SQLITE_CONSTRAINT_UNIQUE'));
  app.get('/deadlock', failWith('40P01'));
  app.get('/serialization', failWith('40001'));
  app.get('/other', failWith('XX000'));
  const failWithMessage = (message: string) => () => {
    throw new Error(message);
  };
  for (const code of ['57P01', '57P02', '57P03', '08006', '08001', 'ECONNREFUSED', 'ECONNRESET']) app.get(`/away/${code}`, failWith(code));
  app.get('/away/terminated', failWithMessage('Connection terminated unexpectedly'));
  app.get('/away/not-queryable', failWithMessage('Client has encountered a connection error and is not queryable'));
  app.get('/away/connect-timeout', failWithMessage('timeout exceeded when trying to connect'));

  it.each(['57P01', '57P02', '57P03', '08006', '08001', 'ECONNREFUSED', 'ECONNRESET', 'terminated', 'not-queryable', 'connect-timeout'])(
    'the database away (%s) answers 503 with Retry-After and no internals',
    async (what) => {
      const res = await app.inject({ url: `/away/${what}` });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({ error: { code: 503, message: expect.stringContaining('database') } });
      expect(res.json().error.message).not.toMatch(/database said|terminated|queryable/);
    },
  );

  it.each(['/unique-pg', '/unique-sqlite', '/deadlock', '/serialization'])('%s answers 409 without internals', async (url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body).toEqual({ error: { code: 409, message: expect.any(String) } });
    expect(body.error.message).not.toMatch(/database said/);
  });

  it('anything else is a 500 that names no internals', async () => {
    const res = await app.inject({ url: '/other' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).not.toMatch(/database said|XX000/);
  });
});
