import { Injectable } from '@nestjs/common';
import { hash, verify, type Options } from '@node-rs/argon2';
import { AppConfig } from '@hostboard/core';

/** Per PASSWORD_HASH_COST: the library's defaults (argon2id, 19 MiB, two passes), or a test's 1 MiB and one pass. */
const COSTS: Record<AppConfig['PASSWORD_HASH_COST'], Options> = {
  standard: {},
  test: { memoryCost: 1024, timeCost: 1 },
};

/**
 * argon2id password hashes (@node-rs/argon2, whose default algorithm is argon2id: prebuilt, no install script; its verify compares in
 * constant time). The `argon2` package's prebuilt binary crashed with a segmentation fault on these
 * machines, hence this binding.
 */
@Injectable()
export class PasswordHasher {
  private readonly options: Options;
  /** Verified against when the email is unknown, so both failures cost the same time. */
  private readonly decoy: Promise<string>;

  constructor(config: AppConfig) {
    this.options = COSTS[config.PASSWORD_HASH_COST];
    this.decoy = this.hash('decoy password that matches nothing');
  }

  hash(password: string): Promise<string> {
    return hash(password, this.options);
  }

  async verify(stored: string | undefined, password: string): Promise<boolean> {
    try {
      const ok = await verify(stored ?? (await this.decoy), password);
      return ok && stored !== undefined;
    } catch {
      return false;
    }
  }
}
