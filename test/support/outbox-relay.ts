import { Clock, loadConfig, Metrics, TransactionRunner } from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { JobScheduler } from '@hostboard/jobs';
import { EmailChannel, OutboxRelay, OutboxRelayRepository, SmsAdapter } from '@hostboard/outbox';
import type { TestApp } from './test-app.js';

/**
 * The relay a worker started with `env` (a provider's settings) would run, on this app's database:
 * tests start the app without a provider, so nothing relays behind their back.
 */
export function relayOn(t: TestApp, env: Record<string, string>): OutboxRelay {
  const config = loadConfig({ NODE_ENV: 'test', ...env });
  return new OutboxRelay(
    t.app.get(Clock),
    t.app.get(TransactionRunner),
    t.app.get(JobScheduler),
    t.app.get(BoardEventWriter),
    config,
    t.app.get(OutboxRelayRepository),
    t.app.get(Metrics),
    new EmailChannel(config),
    new SmsAdapter(config),
  );
}
