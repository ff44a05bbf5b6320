package io.ratatosk.bench.jmh;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The counters every page benchmark reports beside its operations, one instance per thread, filled in by
 * {@link ThreadCursor} as each iteration ends. A state of its own because JMH takes counters only from the
 * fields declared by the annotated class itself, not from a superclass: this way they are declared once.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class IterationCounters {
    /**
     * Pages read from the file during the iteration, reported as a rate beside the ops rate (JMH zeroes it
     * before each iteration and reads it after the iteration's teardown).
     */
    public long pagesRead;
    /** Process CPU nanoseconds in the iteration (see Workload#takeCpuNanos), as a rate beside ops/us. */
    public long cpuNanos;
}
