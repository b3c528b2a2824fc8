import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { StaffRequest } from './access.guard.js';

/** The signed-in staff member the access guard identified. */
export const CurrentStaff = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const staff = ctx.switchToHttp().getRequest<StaffRequest>().staff;
  if (!staff) throw new Error('CurrentStaff used on a route without a staff access rule');
  return staff;
});
