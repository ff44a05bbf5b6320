package io.ratatosk.it.lifecycle;

import java.util.ArrayList;
import java.util.List;

/** The last {@value #CAPACITY} operations of one thread and how each ended, to print when a run fails. */
final class OpLog {
    static final int CAPACITY = 200;

    private final String owner;
    private final String[] entries = new String[CAPACITY];
    private long count;

    OpLog(String owner) {
        this.owner = owner;
    }

    synchronized void add(String entry) {
        entries[(int) (count++ % CAPACITY)] = entry;
    }

    /** Appends to the last entry (how the operation ended). */
    synchronized void end(String outcome) {
        if (count > 0) {
            int i = (int) ((count - 1) % CAPACITY);
            entries[i] = entries[i] + " -> " + outcome;
        }
    }

    synchronized List<String> lastEntries() {
        List<String> out = new ArrayList<>();
        long first = Math.max(0, count - CAPACITY);
        for (long i = first; i < count; i++) {
            out.add(entries[(int) (i % CAPACITY)]);
        }
        return out;
    }

    String dump() {
        StringBuilder sb = new StringBuilder("--- last operations of ").append(owner).append(" ---\n");
        for (String e : lastEntries()) {
            sb.append("  ").append(e).append('\n');
        }
        return sb.toString();
    }
}
