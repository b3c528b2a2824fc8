import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Public, SignedIn } from '@hostboard/core';
import { InvitationService, type InvitationPreview } from '../invitations/invitation.service.js';
import { AuthService, type SessionView, type StaffIdentity } from '../sessions/auth.service.js';
import { CurrentStaff } from '../guards/current-staff.decorator.js';
import { LoginDto } from './login.dto.js';
import { ChangePasswordDto, ClaimInvitationDto, PreviewInvitationDto } from './password.dto.js';

@ApiTags('staff')
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly invitations: InvitationService,
  ) {}

  @Public('staff login')
  @Post('sessions')
  @HttpCode(201)
  login(@Body() body: LoginDto): Promise<SessionView> {
    return this.auth.login(body.email, body.password);
  }

  @ApiBearerAuth()
  @SignedIn()
  @Delete('sessions/current')
  @HttpCode(204)
  logout(@CurrentStaff() staff: StaffIdentity): Promise<void> {
    return this.auth.logout(staff);
  }

  /** Sign out everywhere: every session of the caller's account, this one included. */
  @ApiBearerAuth()
  @SignedIn()
  @Delete('sessions')
  @HttpCode(204)
  async logoutEverywhere(@CurrentStaff() staff: StaffIdentity): Promise<void> {
    await this.auth.logoutEverywhere(staff);
  }

  /** Change your own password; every other session of the account ends. */
  @ApiBearerAuth()
  @SignedIn()
  @Post('password')
  @HttpCode(200)
  changePassword(@CurrentStaff() staff: StaffIdentity, @Body() body: ChangePasswordDto): Promise<{ endedSessions: number }> {
    return this.auth.changePassword(staff, body.currentPassword, body.newPassword);
  }

  /** Claim an invitation with its one-time link: a new password, earlier sessions ended, the role granted. */
  @Public('the holder of an invitation link claims it (the link is the credential)')
  @Post('invitations/claim')
  @HttpCode(201)
  claim(@Body() body: ClaimInvitationDto): Promise<SessionView> {
    return this.invitations.claim(body.token, body.password, body.currentPassword);
  }

  /**
   * What a link would join, before its holder types a password: read by the token in the body (never
   * in a URL or a log), counted per address as a claim is, and spending nothing. A dead link answers
   * the claim's own TOKEN_INVALID.
   */
  @Public('the holder of an invitation link reads what it joins (the link is the credential)')
  @Post('invitations/preview')
  @HttpCode(200)
  preview(@Body() body: PreviewInvitationDto): Promise<InvitationPreview> {
    return this.invitations.preview(body.token);
  }
}
