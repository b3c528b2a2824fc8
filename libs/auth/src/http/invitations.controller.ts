import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import type { StaffIdentity } from '../sessions/auth.service.js';
import { CurrentStaff } from '../guards/current-staff.decorator.js';
import {
  PendingInvitationsService,
  type CancelledInvitation,
  type PendingInvitation,
} from '../invitations/pending-invitations.service.js';

/** The venue's open invitation links: seen and cancelled by managers and owners. */
@ApiTags('staff')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/invitations')
export class InvitationsController {
  constructor(private readonly invitations: PendingInvitationsService) {}

  @VenueRole('manager')
  @Get()
  list(@Param('venueId', ParseUUIDPipe) venueId: string, @CurrentStaff() staff: StaffIdentity): Promise<PendingInvitation[]> {
    return this.invitations.list(venueId, staff.userId);
  }

  @VenueRole('manager')
  @Delete(':invitationId')
  @HttpCode(200)
  cancel(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('invitationId', ParseUUIDPipe) invitationId: string,
    @CurrentStaff() staff: StaffIdentity,
  ): Promise<CancelledInvitation> {
    return this.invitations.cancel(venueId, staff.userId, invitationId);
  }
}
