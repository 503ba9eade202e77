/**
 * An upload the server will not take: 413 for size, 503 (with `retryAfterSeconds`) when too many
 * photos are being decoded, 400 otherwise.
 */
export class UploadRefused extends Error {
  readonly status: 400 | 413 | 503;
  readonly retryAfterSeconds: number | undefined;
  constructor(status: 400 | 413 | 503, message: string, retryAfterSeconds?: number) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
