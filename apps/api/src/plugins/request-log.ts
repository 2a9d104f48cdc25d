import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One info line per answered request, rather than Fastify's two ('incoming request', then 'request
 * completed'): the completed line carries the request too (method, URL, host, remote address), with the
 * status and the time taken. Errored requests and a route's own log level (the media nodes' polling is
 * logged only at warn) are as Fastify does them.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.isLogDisabled(request)) {
      super.requestCompleted(error, request, reply);
      return;
    }
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
