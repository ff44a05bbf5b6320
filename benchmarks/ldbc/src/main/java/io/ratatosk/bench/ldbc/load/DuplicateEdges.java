package io.ratatosk.bench.ldbc.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the rows that repeat an earlier row's pair among the files of one relationship (a friend
 * listed twice is found twice by every query). No set of all pairs: the rows' node pairs
 * (8 bytes a row) are bucketed by their first node as an adjacency list is built (a counting sort),
 * and each node's neighbours sorted, so a repeat shows as two equal neighbours side by side. Only
 * when one is found are the rows searched for the earliest repeat, to name its lines.
 */
final class DuplicateEdges {
    /**
     * The first repeat: rows counted from 0 over the group's files in load order, {@code earlier < later}; and how
     * many rows repeat an earlier one in all.
     */
    record Repeat(int earlier, int later, boolean reversed, long count) {
    }

    private final boolean undirected;
    private long[] pairs = new long[1 << 12];
    private int size;

    /** @param undirected whether {@code a|b} and {@code b|a} are the same relationship (knows) */
    DuplicateEdges(boolean undirected) {
        this.undirected = undirected;
    }

    /** Notes the next row's nodes. */
    void add(int from, int to) {
        if (size == pairs.length) {
            if (size == Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("more than " + size + " rows in one relationship's files");
            }
            pairs = Arrays.copyOf(pairs, (int) Math.min(Integer.MAX_VALUE - 8, size + (long) (size >> 1)));
        }
        pairs[size++] = ((long) from << 32) | to;
    }

    int rows() {
        return size;
    }

    /**
     * The earliest row that repeats an earlier one and the number of such rows, or null. {@code buckets} is scratch space of at
     * least {@code nodes + 1} ints (kept by the caller across relationships).
     */
    Repeat find(int nodes, int[] buckets) {
        Arrays.fill(buckets, 0, nodes + 1, 0);
        for (int i = 0; i < size; i++) {
            buckets[key(pairs[i])]++;
        }
        int end = 0;
        for (int n = 0; n < nodes; n++) {
            end += buckets[n];
            buckets[n] = end;
        }
        buckets[nodes] = size;
        int[] neighbours = new int[size];
        for (int i = size - 1; i >= 0; i--) {
            neighbours[--buckets[key(pairs[i])]] = other(pairs[i]);
        }
        // Now node n's neighbours lie in [buckets[n], buckets[n + 1]).
        long count = 0;
        for (int n = 0; n < nodes; n++) {
            int lo = buckets[n];
            int hi = buckets[n + 1];
            if (hi - lo < 2) {
                continue;
            }
            Arrays.sort(neighbours, lo, hi);
            for (int j = lo + 1; j < hi; j++) {
                if (neighbours[j] == neighbours[j - 1]) {
                    count++;
                }
            }
        }
        return count == 0 ? null : earliestRepeat(count);
    }

    private int key(long pair) {
        int from = (int) (pair >>> 32);
        int to = (int) pair;
        return undirected ? Math.min(from, to) : from;
    }

    private int other(long pair) {
        int from = (int) (pair >>> 32);
        int to = (int) pair;
        return undirected ? Math.max(from, to) : to;
    }

    /** The error path only: the rows in order against the pairs seen, so the message names the first repeat. */
    private Repeat earliestRepeat(long count) {
        Map<Long, Integer> seen = new HashMap<>();
        for (int i = 0; i < size; i++) {
            long canonical = ((long) key(pairs[i]) << 32) | other(pairs[i]);
            Integer earlier = seen.putIfAbsent(canonical, i);
            if (earlier != null) {
                return new Repeat(earlier, i, pairs[earlier] != pairs[i], count);
            }
        }
        throw new IllegalStateException("a repeat was seen in the buckets but not in the rows");
    }

    /** Where rows start, per file, so a row number becomes a file and the row within it. */
    static final class Files {
        private final List<String> names = new ArrayList<>();
        private final List<Integer> firstRows = new ArrayList<>();

        void start(String file, int firstRow) {
            names.add(file);
            firstRows.add(firstRow);
        }

        /** The file holding {@code row}. */
        String file(int row) {
            return names.get(index(row));
        }

        /** The row's index within its file (0 for the first row after the header). */
        int rowInFile(int row) {
            return row - firstRows.get(index(row));
        }

        private int index(int row) {
            int i = firstRows.size() - 1;
            while (firstRows.get(i) > row) {
                i--;
            }
            return i;
        }
    }
}
