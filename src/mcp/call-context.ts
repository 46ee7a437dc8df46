/** Kept apart from tool-kit.ts so the wait helpers can name it without joining tool-kit's import cycle. */
/** One tool call's own channel back to the client: its cancellation and its progress notifications. */
export interface CallContext {
  /** aborted when the client sends notifications/cancelled for this request (or the connection closes) */
  signal?: AbortSignal;
  /** a notifications/progress for this call, when the client passed a progress token; otherwise nothing */
  progress(message: string): void;
  /** files this call wrote (absolute paths): the reply links each as a resource (resource_link) */
  written?: string[];
}
