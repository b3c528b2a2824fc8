/** The guest page's one wall-clock reader (a browser has no injected Clock); the venue's time comes from the api. */
export function readWallClock(): number {
  return Date.now();
}
