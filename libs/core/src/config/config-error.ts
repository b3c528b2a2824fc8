/** A configuration the process cannot start with; its message is one line for the operator. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
