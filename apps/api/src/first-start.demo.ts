import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { OwnerBootstrap } from '@hostboard/auth';
import { DemoSeed } from './demo-seed.js';

/**
 * `npm start` on an empty embedded database: a demo owner, the demo venues, and the login printed
 * once. Runs after the configured first owner (if any), which makes this a no-op.
 */
@Injectable()
export class FirstStartDemo implements OnApplicationBootstrap {
  constructor(
    private readonly owners: OwnerBootstrap,
    private readonly seed: DemoSeed,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const demo = await this.owners.createDemoOwner();
    if (!demo) return;
    await this.seed.seed(demo.userId);
    this.owners.printDemoLogin(demo.password);
  }
}
