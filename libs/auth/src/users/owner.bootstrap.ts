import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '@hostboard/core';
import { StaffAccountService } from './staff-account.service.js';

export const DEMO_OWNER_EMAIL = 'owner@hostboard.local';

/**
 * The first owner: from BOOTSTRAP_OWNER_EMAIL / BOOTSTRAP_OWNER_PASSWORD when set; on the embedded
 * default with no accounts at all, a demo owner whose login is printed once.
 */
@Injectable()
export class OwnerBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly config: AppConfig,
    private readonly accounts: StaffAccountService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { BOOTSTRAP_OWNER_EMAIL: email, BOOTSTRAP_OWNER_PASSWORD: password } = this.config;
    if (email && password) {
      const { created } = await this.accounts.ensureAccount({ email, password, name: 'Owner' }, 'owner-created');
      if (created) this.logger.log(`created the first owner ${email}`);
      return;
    }
  }

  /**
   * On the embedded default with no accounts at all (and outside tests): a demo owner. Answers its
   * id and password, or null when there is nothing to do. The app may seed demo venues for it.
   */
  async createDemoOwner(): Promise<{ userId: string; password: string } | null> {
    if (!this.config.embedded || this.config.NODE_ENV === 'test' || this.config.BOOTSTRAP_OWNER_EMAIL) return null;
    if ((await this.accounts.countAccounts()) > 0) return null;
    const password = randomBytes(9).toString('base64url');
    const { user, created } = await this.accounts.ensureAccount(
      { email: DEMO_OWNER_EMAIL, password, name: 'Demo owner' },
      'owner-created',
    );
    return created ? { userId: user.id, password } : null;
  }

  /** Printed once, to the terminal of the person who just ran `npm start`; it is never stored in clear. */
  printDemoLogin(password: string): void {
    process.stdout.write(
      `\n  Demo owner created. Sign in with\n    email:    ${DEMO_OWNER_EMAIL}\n    password: ${password}\n\n`,
    );
  }
}
