/**
 * Where the gateway gets a whole board (the `GET /board` body) for a board with no or too old a
 * version. Implemented by the module that reads the floor; the app wires it in, so this library
 * never depends on the domain modules that depend on it.
 */
export abstract class BoardSnapshotSource {
  abstract snapshot(venueId: string): Promise<{ version: number } & Record<string, unknown>>;
}
