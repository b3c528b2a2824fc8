import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Public, SignedIn } from '@hostboard/core';
import { AuthService, type SessionView, type StaffIdentity } from '../sessions/auth.service.js';
import { CurrentStaff } from '../guards/current-staff.decorator.js';
import { LoginDto } from './login.dto.js';

@ApiTags('staff')
@Controller('v1/auth/sessions')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Public('staff login')
  @Post()
  @HttpCode(201)
  login(@Body() body: LoginDto): Promise<SessionView> {
    return this.auth.login(body.email, body.password);
  }

  @ApiBearerAuth()
  @SignedIn()
  @Delete('current')
  @HttpCode(204)
  logout(@CurrentStaff() staff: StaffIdentity): Promise<void> {
    return this.auth.logout(staff);
  }
}
