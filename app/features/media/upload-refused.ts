/** What is wrong with an upload: too large, not a readable image, or too many photos being decoded now. */
export type UploadProblem = "too-large" | "invalid" | "busy";

/** An upload the server will not take; when `busy`, `retryAfterSeconds` says when to send it again. */
export class UploadRefused extends Error {
  readonly problem: UploadProblem;
  readonly retryAfterSeconds: number | undefined;
  constructor(problem: UploadProblem, message: string, retryAfterSeconds?: number) {
    super(message);
    this.problem = problem;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
