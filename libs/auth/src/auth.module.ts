import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuditLog } from './audit/audit.log.js';
import { AccessGuard } from './guards/access.guard.js';
import { AuthController } from './http/auth.controller.js';
import { MembersController } from './http/members.controller.js';
import { MembershipRepository } from './memberships/membership.repository.js';
import { MembershipService } from './memberships/membership.service.js';
import { AttemptLimiter } from './rate-limit/attempt.limiter.js';
import { AuthService } from './sessions/auth.service.js';
import { StaffSessionRepository } from './sessions/staff-session.repository.js';
import { PasswordHasher } from './users/password.hasher.js';
import { StaffAccountService } from './users/staff-account.service.js';
import { StaffUserRepository } from './users/staff-user.repository.js';

/** Staff accounts, sessions, venue roles and the guard in front of every route. */
@Module({
  controllers: [AuthController, MembersController],
  providers: [
    AuditLog,
    AuthService,
    AttemptLimiter,
    MembershipRepository,
    MembershipService,
    PasswordHasher,
    StaffAccountService,
    StaffSessionRepository,
    StaffUserRepository,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AuthService, MembershipService, StaffAccountService, AttemptLimiter, AuditLog],
})
export class AuthModule {}
