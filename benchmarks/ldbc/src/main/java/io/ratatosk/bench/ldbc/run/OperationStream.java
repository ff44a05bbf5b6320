package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One thread's sequence of queries, the way LDBC's driver interleaves them: a complex read, then a
 * walk of short reads on persons and messages taken from the results of the reads before it, which
 * goes on with a probability that drops by {@value #DISSIPATION} per step (LDBC's
 * {@code short_read_dissipation}). A step is IS1-IS3 on one person, then IS4-IS7 on one message.
 *
 * <p>The complex reads come in the order of {@link QueryType#COMPLEX} first, so that a run of a few
 * operations already executes every query type, then drawn with LDBC's relative frequencies (and in
 * order once more after {@link #startRound()}, which the runner calls as its measured phase starts, so
 * that a measured phase of a few hundred operations executes every type too); their
 * parameters cycle through the substitution parameters. Everything is a function of the seed, the
 * thread and the results, so every policy replays the same sequence.
 */
public final class OperationStream {
    static final double DISSIPATION = 0.2;
    /**
     * LDBC's interleaves of IC1-IC14 (its SF1 driver settings: one IC1 per 26 units of update time,
     * ...); the relative frequency of each complex read is 1 / its interleave.
     */
    static final int[] INTERLEAVES = {26, 37, 69, 36, 57, 129, 87, 45, 157, 30, 16, 44, 19, 49};
    private static final double[] WEIGHTS = new double[INTERLEAVES.length];

    static {
        for (int i = 0; i < INTERLEAVES.length; i++) {
            WEIGHTS[i] = 1.0 / INTERLEAVES[i];
        }
    }
    private static final int POOL_SIZE = 256;

    /** Where a walk turns when no earlier result named a person or a message yet. */
    public interface Fallback {
        long randomPerson(SplittableRandom random) throws IOException;

        /** A random message id, or -1 if the data set has none. */
        long randomMessage(SplittableRandom random) throws IOException;
    }

    private final SubstitutionParameters parameters;
    private final Fallback fallback;
    private final SplittableRandom random;
    private final int[] nextParameter = new int[QueryType.COMPLEX.size()];
    private final ArrayDeque<QueryType> pending = new ArrayDeque<>();
    private final IdPool persons = new IdPool(POOL_SIZE);
    private final IdPool messages = new IdPool(POOL_SIZE);
    /** Complex reads issued since the round began (it is IC1-IC14 in turn, from {@link #roundStart}). */
    private long complexIssued;
    /** The index into {@link QueryType#COMPLEX} that the current round began at. */
    private int roundStart;
    private double walkProbability;
    private long stepPerson;
    private long stepMessage;

    public OperationStream(SubstitutionParameters parameters, Fallback fallback, long seed, int thread) {
        this.parameters = parameters;
        this.fallback = fallback;
        this.random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + thread);
        for (int i = 0; i < nextParameter.length; i++) {
            int size = parameters.of(QueryType.COMPLEX.get(i)).size();
            nextParameter[i] = (int) ((thread * 7919L) % size);
        }
    }

    /**
     * The next fourteen complex reads are IC1-IC14 in turn, then the draws by frequency go on. A round still under
     * way (a warm-up too short to finish it) goes on first and then wraps around to the types it already ran: finishing
     * it alone left those types out of the measured phase, and starting it over left the round's last types out of a
     * short run altogether.
     */
    public void startRound() {
        roundStart = complexIssued < QueryType.COMPLEX.size()
            ? (int) ((roundStart + complexIssued) % QueryType.COMPLEX.size()) : 0;
        complexIssued = 0;
    }

    /** The next query to execute. */
    public Query next() throws IOException {
        while (pending.isEmpty()) {
            if (walkProbability > 0 && random.nextDouble() < walkProbability) {
                walkProbability -= DISSIPATION;
                stepPerson = persons.pick(random);
                if (stepPerson < 0) {
                    stepPerson = fallback.randomPerson(random);
                }
                pending.addAll(QueryType.PERSON_SHORT);
                pending.addAll(QueryType.MESSAGE_SHORT);
            } else {
                walkProbability = 1.0;
                return nextComplex();
            }
        }
        QueryType type = pending.poll();
        if (type == QueryType.IS4) {
            stepMessage = messages.pick(random);
            if (stepMessage < 0) {
                stepMessage = fallback.randomMessage(random);
            }
            if (stepMessage < 0) {
                pending.clear(); // a data set without messages: no message reads
                return next();
            }
        }
        return Query.of(type, type.parameters().get(0).equals("personId") ? stepPerson : stepMessage);
    }

    private Query nextComplex() {
        int i;
        if (complexIssued < QueryType.COMPLEX.size()) {
            i = (int) ((roundStart + complexIssued) % QueryType.COMPLEX.size());
        } else {
            double total = 0;
            for (double w : WEIGHTS) {
                total += w;
            }
            double x = random.nextDouble() * total;
            i = 0;
            while (i < WEIGHTS.length - 1 && x >= WEIGHTS[i]) {
                x -= WEIGHTS[i];
                i++;
            }
        }
        complexIssued++;
        List<Query> list = parameters.of(QueryType.COMPLEX.get(i));
        Query q = list.get(nextParameter[i]);
        nextParameter[i] = (nextParameter[i] + 1) % list.size();
        return q;
    }

    /**
     * Feeds a query's results back: the persons and messages they name are where the walks go next, and the persons its
     * parameters name where it found them. A read finds nothing for a person the data set lacks (IC13 its -1), and the
     * sample's IC13 parameters name two such persons (3279|3280): taken whatever the read found, they sent walks to IS1-IS3
     * on persons that exist nowhere, reads of an id index probe and nothing else, where LDBC's walks take their ids from
     * results.
     */
    public void completed(Query q, List<List<Object>> rows) {
        boolean found = !rows.isEmpty() && !(q.type() == QueryType.IC13 && Long.valueOf(-1).equals(rows.get(0).get(0)));
        for (var parameter : q.params().entrySet()) {
            if (found && parameter.getKey().startsWith("person")) {
                persons.add(parameter.getValue());
            }
        }
        for (List<Object> row : rows) {
            switch (q.type()) {
                case IS2 -> {
                    messages.add(row.get(0));
                    messages.add(row.get(3));
                    persons.add(row.get(4));
                }
                case IS3, IS5, IC1, IC3, IC10, IC11, IC12 -> persons.add(row.get(0));
                case IC7 -> {
                    persons.add(row.get(0));
                    messages.add(row.get(4));
                }
                case IC14 -> ((List<?>) row.get(0)).forEach(persons::add);
                case IS6 -> persons.add(row.get(2));
                case IS7 -> {
                    messages.add(row.get(0));
                    persons.add(row.get(3));
                }
                case IC2, IC9 -> {
                    persons.add(row.get(0));
                    messages.add(row.get(3));
                }
                case IC8 -> {
                    persons.add(row.get(0));
                    messages.add(row.get(4));
                }
                default -> {
                }
            }
        }
    }

    /** The most recent ids seen, a ring of fixed size. */
    private static final class IdPool {
        private final long[] ids;
        private int size;
        private int next;

        IdPool(int capacity) {
            this.ids = new long[capacity];
        }

        void add(Object id) {
            if (id instanceof Long l) {
                ids[next] = l;
                next = (next + 1) % ids.length;
                size = Math.min(size + 1, ids.length);
            }
        }

        long pick(SplittableRandom random) {
            return size == 0 ? -1 : ids[random.nextInt(size)];
        }
    }
}
