/**
 * The Redis pub/sub channel key of the board's socket.io adapter (the api processes) and emitter
 * (the worker): under JOBS_PREFIX, like every key of a deployment. Pub/sub channels belong to the
 * whole Redis server, whatever the database number: with socket.io's default ("socket.io") two
 * deployments sharing one server (staging and production) pushed each other's board events and
 * session cuts to their sockets, and a staging copy of production's data has the same venue ids.
 */
export function boardChannelKey(jobsPrefix: string): string {
  return `${jobsPrefix}:socket.io`;
}
