import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import type { StaffIdentity } from '../sessions/auth.service.js';
import { CurrentStaff } from '../guards/current-staff.decorator.js';
import { MembershipService, type MemberView } from '../memberships/membership.service.js';
import { AddMemberDto } from './add-member.dto.js';

@ApiTags('staff')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/members')
export class MembersController {
  constructor(private readonly memberships: MembershipService) {}

  @VenueRole('manager')
  @Post()
  @HttpCode(201)
  add(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @CurrentStaff() staff: StaffIdentity,
    @Body() body: AddMemberDto,
  ): Promise<MemberView> {
    return this.memberships.addMember(venueId, staff.userId, body);
  }

  @VenueRole('manager')
  @Get()
  list(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<MemberView[]> {
    return this.memberships.list(venueId);
  }
}
