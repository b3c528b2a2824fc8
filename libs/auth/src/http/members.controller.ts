import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import type { StaffIdentity } from '../sessions/auth.service.js';
import { CurrentStaff } from '../guards/current-staff.decorator.js';
import {
  MembershipService,
  type AddMemberResult,
  type ListedMember,
  type MemberView,
} from '../memberships/membership.service.js';
import { AddMemberDto } from './add-member.dto.js';
import { ChangeRoleDto, ResetPasswordDto } from './member.dto.js';

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
  ): Promise<AddMemberResult> {
    return this.memberships.addMember(venueId, staff.userId, body);
  }

  @VenueRole('manager')
  @Get()
  list(@Param('venueId', ParseUUIDPipe) venueId: string, @CurrentStaff() staff: StaffIdentity): Promise<ListedMember[]> {
    return this.memberships.list(venueId, staff.userId);
  }

  @VenueRole('manager')
  @Patch(':userId')
  changeRole(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('userId', ParseUUIDPipe) userId: string,
    @CurrentStaff() staff: StaffIdentity,
    @Body() body: ChangeRoleDto,
  ): Promise<MemberView> {
    return this.memberships.changeRole(venueId, staff.userId, userId, body.role);
  }

  @VenueRole('manager')
  @Delete(':userId')
  @HttpCode(204)
  remove(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('userId', ParseUUIDPipe) userId: string,
    @CurrentStaff() staff: StaffIdentity,
  ): Promise<void> {
    return this.memberships.remove(venueId, staff.userId, userId);
  }

  /** A new initial password for an account this venue created and its holder never claimed. */
  @VenueRole('manager')
  @Post(':userId/password')
  @HttpCode(200)
  resetPassword(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('userId', ParseUUIDPipe) userId: string,
    @CurrentStaff() staff: StaffIdentity,
    @Body() body: ResetPasswordDto,
  ): Promise<{ endedSessions: number }> {
    return this.memberships.resetPassword(venueId, staff.userId, userId, body.password);
  }
}
