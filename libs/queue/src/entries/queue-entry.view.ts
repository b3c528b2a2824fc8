import type { EntryStatus, QueueEntry } from './queue-entry.entity.js';

export interface EntryView {
  id: string;
  name: string;
  partySize: number;
  status: EntryStatus;
  receivedAt: string;
  queueSequence: number;
  version: number;
  businessDate: string;
}

export function toEntryView(e: QueueEntry): EntryView {
  return {
    id: e.id,
    name: e.name,
    partySize: e.partySize,
    status: e.status,
    receivedAt: e.receivedAt.toISOString(),
    queueSequence: Number(e.queueSequence),
    version: e.version,
    businessDate: e.businessDate,
  };
}
