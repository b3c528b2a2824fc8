import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id password hashes (@node-rs/argon2, whose default algorithm is argon2id: prebuilt, no install script; its verify compares in
 * constant time). The `argon2` package's prebuilt binary crashed with a segmentation fault on these
 * machines, hence this binding.
 */
@Injectable()
export class PasswordHasher {
  /** Verified against when the email is unknown, so both failures cost the same time. */
  private readonly decoy: Promise<string> = hash('decoy password that matches nothing');

  hash(password: string): Promise<string> {
    return hash(password);
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
