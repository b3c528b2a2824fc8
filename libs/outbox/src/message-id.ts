import { v7 } from 'uuid';

/**
 * A message id that sorts in the order messages were recorded: a UUID version 7 (RFC 9562) from the
 * `uuid` package, whose ids made by one process rise even within one millisecond. Lists and the
 * relay order messages by (created_at, id); created_at is the venue's clock, which at a sandbox
 * venue stands still between moves, so a rehearsed evening had all its messages at one instant,
 * listed in the random order of version 4 ids. The id's time only orders; every time a person reads
 * is still the venue's clock.
 */
export const nextMessageId = (): string => v7();
