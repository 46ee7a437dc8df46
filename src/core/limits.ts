/** Bounds shared by every layer, so a front end and the session refuse at the same size. */

/** Largest memory read or write the session passes to a target in one request. */
export const MAX_TRANSFER = 1 << 20;
