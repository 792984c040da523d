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
