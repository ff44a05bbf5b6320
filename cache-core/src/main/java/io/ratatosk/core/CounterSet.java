package io.ratatosk.core;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Monotonic counters named by an enum, each a {@link LongAdder} so that threads adding to them do not
 * contend on one cache line. Hot paths count in a local field and add here in batches.
 */
public final class CounterSet<E extends Enum<E>> {
    private final Class<E> names;
    private final LongAdder[] adders;

    public CounterSet(Class<E> names) {
        this.names = names;
        E[] constants = names.getEnumConstants();
        adders = new LongAdder[constants.length];
        for (int i = 0; i < adders.length; i++) {
            adders[i] = new LongAdder();
        }
    }

    public void add(E counter, long delta) {
        if (delta != 0) {
            adders[counter.ordinal()].add(delta);
        }
    }

    public void increment(E counter) {
        adders[counter.ordinal()].increment();
    }

    public long get(E counter) {
        return adders[counter.ordinal()].sum();
    }

    /** Every counter's current sum, in declaration order. */
    public Map<E, Long> snapshot() {
        Map<E, Long> values = new EnumMap<>(names);
        for (E e : names.getEnumConstants()) {
            values.put(e, get(e));
        }
        return values;
    }
}
