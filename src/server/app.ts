import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { databaseSourceFor, openDatabase, type DatabaseHandle } from './db/client.ts';
import { createAuth } from './features/auth/auth.ts';
import { authRoutes } from './features/auth/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { pagesRoutes } from './features/pages/routes.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerSession } from './http/session.ts';
import { registerSpa } from './http/spa.ts';

export type AppDependencies = {
  /** An open database; when omitted the app opens one from the config and closes it on shutdown. */
  database?: DatabaseHandle;
  /** Where the built web app lives; defaults to dist/web. */
  webDir?: string;
};

const isSource = import.meta.url.endsWith('.ts');
const defaultWebDir = fileURLToPath(new URL(isSource ? '../../dist/web' : '../web', import.meta.url));

/** A stable secret for signing sessions: from the config, else generated once and kept in the data directory. */
function resolveAuthSecret(config: Config) {
  if (config.auth.secret) return config.auth.secret;
  const file = path.join(config.dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export async function buildApp(config: Config, dependencies: AppDependencies = {}) {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  const database = dependencies.database ?? (await openDatabase(databaseSourceFor(config)));
  if (!dependencies.database) app.addHook('onClose', () => database.close());
  const { db } = database;
  const auth = createAuth({ config, db, secret: resolveAuthSecret(config) });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers and sonner adds its stylesheet at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.publicUrl.startsWith('https://') ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Virtual Help API', version: '1.0.0', description: 'The JSON API of the Virtual Help tutoring marketplace.' },
      servers: [{ url: config.publicUrl }],
    },
    transform: jsonSchemaTransform,
  });
  registerSession(app, auth);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(healthRoutes, { db });
  await app.register(authRoutes, { auth });
  await app.register(pagesRoutes, { db, config });

  await registerSpa(app, dependencies.webDir ?? defaultWebDir);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
