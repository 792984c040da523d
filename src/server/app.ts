import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DocsyncError } from '../model/index.js';
import type { AppContext } from './context.js';
import { installErrorHandlers } from './errors.js';
import { validatorCompiler } from './validation.js';
import { bearerToken } from './auth/tokens.js';
import { userForToken } from './store/users.js';
import { userRoutes } from './routes/user.js';
import { organizationRoutes } from './routes/organizations.js';
import { spaceRoutes } from './routes/spaces.js';
import { collectionRoutes } from './routes/collections.js';

export interface AppOptions extends AppContext {
  /** Largest accepted request body in bytes. @default 10 MiB */
  bodyLimit?: number;
  logger?: FastifyServerOptions['logger'];
}

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

/** Builds the API; never listens (serve.ts does), so tests can run it on any port. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    forceCloseConnections: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.decorate('ctx', {
    db: options.db,
    dialect: options.dialect,
    clock: options.clock,
    publicUrl: options.publicUrl,
  } satisfies AppContext);
  app.decorateRequest('caller');
  installErrorHandlers(app);

  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new DocsyncError('unauthorized', 'missing `Authorization: Bearer <token>` header');
    const user = await userForToken(app.ctx.db, token);
    if (!user) throw new DocsyncError('unauthorized', 'the bearer token is unknown or revoked');
    request.caller = user;
  });

  await app.register(
    async (v1) => {
      await v1.register(userRoutes);
      await v1.register(organizationRoutes);
      await v1.register(spaceRoutes);
      await v1.register(collectionRoutes);
    },
    { prefix: '/v1' },
  );
  return app;
}
