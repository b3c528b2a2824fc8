import { randomBytes } from 'node:crypto';
import type { LedgerClient } from '../ledger.client.js';
import type { BoundaryPlan } from '../boundary-plan.js';

export interface Check {
  ok: boolean;
  evidence: string;
}

/** A second api on the same saved data (with DATABASE_URL), for the last-seat case's other session. */
export interface SecondApi {
  client: LedgerClient;
  /** How it runs, for the evidence: "a second api process (pid 1234)". */
  label: string;
  close(): Promise<void>;
}

/** Where the cases run: the ledger's own in-process api, or a test's app. */
export interface LedgerBackend {
  readonly baseUrl: string;
  client(): Promise<LedgerClient>;
  /** A signed-in staff member with no role at our venues. */
  stranger(): Promise<LedgerClient>;
  /** Stops the api and starts it again on the same saved data. */
  restart(): Promise<void>;
  /** Another api on the same database, or null on the embedded default (one process, one database session). */
  secondApi(): Promise<SecondApi | null>;
}

/** This worksheet has no state the case needs: reported as unverified, with the reason. */
export class Unverifiable extends Error {}

export interface Case {
  test: string;
  /** The starting point and the expected result, in the worksheet's own numbers and references. */
  describe(plan: BoundaryPlan): { start: string; expected: string };
  run(host: LedgerBackend, client: LedgerClient, plan: BoundaryPlan): Promise<Check>;
}

/** A fresh venue slug per case run, so runs never meet. */
export const slug = (name: string): string => `b-${name}-${randomBytes(3).toString('hex')}`;
