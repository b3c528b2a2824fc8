import { Injectable } from '@nestjs/common';
import { BoardSnapshotSource } from '../board-snapshot.source.js';

type Snapshot = Awaited<ReturnType<BoardSnapshotSource['snapshot']>>;

/**
 * Snapshot reads for board subscribers, at most one running per venue: callers that arrive while
 * one runs share the next read, which starts when it ends. Never the running one: it may have begun
 * before the caller joined the venue's room, and would miss an event pushed in between.
 */
@Injectable()
export class SnapshotReads {
  private readonly running = new Map<string, Promise<Snapshot>>();
  private readonly next = new Map<string, Promise<Snapshot>>();

  constructor(private readonly source: BoardSnapshotSource) {}

  read(venueId: string): Promise<Snapshot> {
    const running = this.running.get(venueId);
    if (!running) return this.start(venueId);
    let queued = this.next.get(venueId);
    if (!queued) {
      queued = running.then(
        () => this.startNext(venueId),
        () => this.startNext(venueId),
      );
      this.next.set(venueId, queued);
    }
    return queued;
  }

  private startNext(venueId: string): Promise<Snapshot> {
    this.next.delete(venueId);
    return this.start(venueId);
  }

  private start(venueId: string): Promise<Snapshot> {
    const read = this.source.snapshot(venueId).finally(() => {
      if (this.running.get(venueId) === read) this.running.delete(venueId);
    });
    this.running.set(venueId, read);
    return read;
  }
}
