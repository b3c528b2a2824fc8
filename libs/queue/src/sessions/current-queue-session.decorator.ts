import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { QueueSessionRequest } from './queue-session.guard.js';

/** The party's session the queue-session guard recognised. */
export const CurrentQueueSession = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const session = ctx.switchToHttp().getRequest<QueueSessionRequest>().queueSession;
  if (!session) throw new Error('CurrentQueueSession used on a route without the queue-session guard');
  return session;
});
