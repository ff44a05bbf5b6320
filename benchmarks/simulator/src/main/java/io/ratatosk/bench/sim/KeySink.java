package io.ratatosk.bench.sim;

/** Receives a trace's raw keys in request order, without boxing. */
@FunctionalInterface
interface KeySink {
    void accept(long rawKey);
}
