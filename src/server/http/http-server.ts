import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import { registerContentTypeRules } from './content-types.ts';
import { registerCrossSiteGuard } from './cross-site.ts';
import { registerErrorHandler } from './error-handler.ts';
import { serializeRequest } from './log-redaction.ts';
import { warnOfUntrustedProxy } from './loopback.ts';
import { registerUncachedAnswers } from './uncached-answers.ts';

/**
 * The Fastify instance with what every answer goes through before any feature: logging with redaction, the proxy
 * trust, zod validation, the error shape, no caching of API answers, the cross-site and content-type checks.
 */
export function createHttpServer(config: Config, { logStream }: { logStream?: { write(line: string): void } }) {
  const { trustProxy } = config;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      serializers: { req: serializeRequest },
      stream: logStream,
      // Readable lines for a person at a terminal; JSON lines for whatever collects the output otherwise.
      transport:
        process.stdout.isTTY && !logStream
          ? { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } }
          : undefined,
    },
    // A hop count as proxy-addr takes it: the n nearest addresses of the forwarding chain are proxies.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerUncachedAnswers(app);
  registerCrossSiteGuard(app, config.publicUrl);
  registerContentTypeRules(app);
  if (trustProxy === false) warnOfUntrustedProxy(app);
  return app;
}
