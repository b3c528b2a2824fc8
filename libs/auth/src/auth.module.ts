import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuditLog } from './audit/audit.log.js';
import { AccessGuard } from './guards/access.guard.js';
import { AuthController } from './http/auth.controller.js';
import { InvitationsController } from './http/invitations.controller.js';
import { MembersController } from './http/members.controller.js';
import { MembershipRepository } from './memberships/membership.repository.js';
import { MembershipService } from './memberships/membership.service.js';
import { OutboxWriter } from '@hostboard/outbox';
import { InvitationService } from './invitations/invitation.service.js';
import { PendingInvitationsService } from './invitations/pending-invitations.service.js';
import { StaffInvitationRepository } from './invitations/staff-invitation.repository.js';
import { AttemptLimiter } from './rate-limit/attempt.limiter.js';
import { InvitationLimiter } from './rate-limit/invitation.limiter.js';
import { LimiterStore } from './rate-limit/limiter.store.js';
import { LoginLimiter } from './rate-limit/login.limiter.js';
import { StaffAccessEvents } from './sessions/staff-access.events.js';
import { AuthService } from './sessions/auth.service.js';
import { StaffSessionRepository } from './sessions/staff-session.repository.js';
import { PasswordHasher } from './users/password.hasher.js';
import { StaffAccountService } from './users/staff-account.service.js';
import { StaffUserRepository } from './users/staff-user.repository.js';

/** Staff accounts, sessions, venue roles and the guard in front of every route. */
@Module({
  controllers: [AuthController, MembersController, InvitationsController],
  providers: [
    AuditLog,
    AuthService,
    AttemptLimiter,
    InvitationLimiter,
    InvitationService,
    LimiterStore,
    LoginLimiter,
    OutboxWriter,
    PendingInvitationsService,
    StaffAccessEvents,
    StaffInvitationRepository,
    MembershipRepository,
    MembershipService,
    PasswordHasher,
    StaffAccountService,
    StaffSessionRepository,
    StaffUserRepository,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AuthService, MembershipService, StaffAccountService, AttemptLimiter, AuditLog, LimiterStore, StaffAccessEvents],
})
export class AuthModule {}
