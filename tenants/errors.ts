/** A tenant whose data file cannot be used (migration failed or provisioning unfinished): requests answer 503. */
export class TenantUnavailableError extends Error {
  readonly code = "SERVICE_UNAVAILABLE";
  constructor(message: string) {
    super(message);
  }
}
