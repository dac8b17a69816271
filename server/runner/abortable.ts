// Waiting on something the Runner does not control (a provider stream, an approval, a tool) while still
// reacting to Stop at once.

export const ABORTED = Symbol("aborted");

/**
 * The waits on one signal that are still pending, each settled with ABORTED when it fires. One abort
 * listener per signal, whatever the number of waits: a streamed answer waits once per delta, and adding
 * and removing an EventTarget listener each time cost more than the rest of the delta's trip.
 */
const pendingBySignal = new WeakMap<AbortSignal, Set<(value: typeof ABORTED) => void>>();

function pendingWaits(signal: AbortSignal): Set<(value: typeof ABORTED) => void> {
  let pending = pendingBySignal.get(signal);
  if (!pending) {
    const waits = new Set<(value: typeof ABORTED) => void>();
    pending = waits;
    pendingBySignal.set(signal, waits);
    signal.addEventListener(
      "abort",
      () => {
        for (const settle of waits) settle(ABORTED);
        waits.clear();
      },
      { once: true },
    );
  }
  return pending;
}

/** Resolves with the promise's value, or with ABORTED as soon as the signal fires. */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  const pending = pendingWaits(signal);
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    pending.add(resolve);
    promise.then(
      (value) => {
        pending.delete(resolve);
        resolve(value);
      },
      (error: unknown) => {
        pending.delete(resolve);
        reject(error);
      },
    );
  });
}
