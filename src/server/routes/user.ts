import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { User } from '../../model/index.js';
import { userView } from '../views/user.js';
import { baseUrl } from '../urls.js';

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/user', { schema: { response: { 200: User } } }, async (request) => userView(request.caller, baseUrl(request)));
};
