import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/** argon2id password hashes (the argon2 package; its verify compares in constant time). */
@Injectable()
export class PasswordHasher {
  /** Verified against when the email is unknown, so both failures cost the same time. */
  private readonly decoy: Promise<string> = argon2.hash('decoy password that matches nothing');

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    try {
      const ok = await argon2.verify(hash ?? (await this.decoy), password);
      return ok && hash !== undefined;
    } catch {
      return false;
    }
  }
}
