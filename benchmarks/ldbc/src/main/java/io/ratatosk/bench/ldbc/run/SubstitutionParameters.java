package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.load.BoundedLineReader;
import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.StoreReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The complex reads' parameters from a data set's {@code substitution_parameters/interactive_N_param.txt}
 * files ({@code |} separated, a header of parameter names): values of the names
 * {@link QueryType#isNumeric} accepts are numbers, the rest strings; a line is at most
 * {@link BoundedLineReader#MAX_LINE_CHARS} characters.
 */
public final class SubstitutionParameters {
    private final Map<QueryType, List<Query>> queries;

    private SubstitutionParameters(Map<QueryType, List<Query>> queries) {
        this.queries = queries;
    }

    /** Reads the files of every complex read the runner executes; each must exist and hold a row. */
    public static SubstitutionParameters load(LdbcDataSource source) throws IOException {
        Map<QueryType, List<Query>> all = new EnumMap<>(QueryType.class);
        for (QueryType type : QueryType.COMPLEX) {
            String name = source.describeParameters(type.parameterFile());
            InputStream in = source.openParameters(type.parameterFile());
            if (in == null) {
                throw new LdbcDataException("missing substitution parameters: " + name + " (" + type + " needs "
                    + String.join("|", type.parameters()) + ")");
            }
            List<Query> list = read(type, in, name);
            if (list.isEmpty()) {
                throw new LdbcDataException(name + ": no parameter rows for " + type);
            }
            all.put(type, List.copyOf(list));
        }
        return new SubstitutionParameters(all);
    }

    private static List<Query> read(QueryType type, InputStream stream, String name) throws IOException {
        List<Query> list = new ArrayList<>();
        try (BoundedLineReader in = new BoundedLineReader(stream, name)) {
            String header = in.readLine();
            if (header == null) {
                throw LdbcDataException.at(name, 1, "empty file; expected the header " + String.join("|", type.parameters()));
            }
            if (header.startsWith("\uFEFF")) { // a UTF-8 byte order mark, which strip() keeps
                header = header.substring(1);
            }
            String[] names = header.strip().split("\\|", -1);
            // as a set, and each once: "personId|firstName|firstName" read the row's last column as its firstName
            if (names.length != type.parameters().size()
                || !new java.util.HashSet<>(List.of(names)).equals(new java.util.HashSet<>(type.parameters()))) {
                throw LdbcDataException.at(name, 1, "header " + LdbcDataException.quote(header.strip()) + " does not name " + type
                    + "'s parameters " + String.join("|", type.parameters()));
            }
            String line;
            while ((line = in.readLine()) != null) {
                long lineNo = in.lineNumber();
                if (line.isBlank()) {
                    continue;
                }
                String[] values = line.strip().split("\\|", -1);
                if (values.length != names.length) {
                    throw LdbcDataException.at(name, lineNo, "expected " + names.length + " columns but found "
                        + values.length);
                }
                Map<String, Object> params = new LinkedHashMap<>();
                for (int i = 0; i < names.length; i++) {
                    params.put(names[i], value(names[i], values[i], name, lineNo));
                }
                checkRange(params, name, lineNo);
                list.add(new Query(type, params));
            }
        }
        return list;
    }

    private static Object value(String parameter, String text, String file, long line) throws LdbcDataException {
        if (!QueryType.isNumeric(parameter)) {
            return text;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw LdbcDataException.at(file, line, parameter + ": " + LdbcDataException.quote(text) + " is not a number");
        }
    }

    /**
     * Refuses a value its read cannot mean: IC10's month outside 1 to 12 (13 read the birthdays of February alone, 0
     * those of January), IC3's and IC4's window of no day, or of so many that its end passes the largest time (it
     * overflowed negative): the reads found nothing, or the wrong persons, and were measured without a word.
     */
    private static void checkRange(Map<String, Object> params, String file, long line) throws LdbcDataException {
        if (params.get("month") instanceof Long month && (month < 1 || month > 12)) {
            throw LdbcDataException.at(file, line, "month: " + month + " is no month (1 to 12)");
        }
        if (params.get("durationDays") instanceof Long days) {
            if (days < 1) {
                throw LdbcDataException.at(file, line, "durationDays: " + days + " is a window of no day (1 or more)");
            }
            long start = params.get("startDate") instanceof Long date ? date : 0;
            try {
                Math.addExact(start, Math.multiplyExact(days, DAY_MILLIS));
            } catch (ArithmeticException e) {
                throw LdbcDataException.at(file, line, "durationDays: " + days + " days after startDate " + start
                    + " end past the largest time a date holds");
            }
        }
    }

    private static final long DAY_MILLIS = 24L * 60 * 60 * 1000;

    /** The parameters that name a person: where every complex read starts. */
    private static final List<String> PERSON_PARAMETERS = List.of("personId", "person1Id", "person2Id");

    /**
     * The person ids of these parameters that name no person of the store {@code reader} reads nor one in {@code added}
     * (the persons the update streams add). Parameters from another data set make every complex read find nothing: the
     * run then measures "no such person" and says nothing of it.
     */
    public UnknownPersons unknownPersons(StoreReader reader, Set<Long> added) throws IOException {
        Map<Long, Boolean> known = new HashMap<>();
        List<QueryType> allUnknown = new ArrayList<>();
        for (Map.Entry<QueryType, List<Query>> e : queries.entrySet()) {
            int unknownRows = 0;
            for (Query q : e.getValue()) {
                boolean unknownRow = false;
                for (String name : PERSON_PARAMETERS) {
                    if (q.params().containsKey(name)) {
                        long id = q.longParam(name);
                        Boolean found = known.get(id);
                        if (found == null) {
                            found = added.contains(id) || reader.nodeById(Label.PERSON, id) != GraphStore.NONE;
                            known.put(id, found);
                        }
                        unknownRow |= !found;
                    }
                }
                unknownRows += unknownRow ? 1 : 0;
            }
            if (unknownRows == e.getValue().size()) {
                allUnknown.add(e.getKey());
            }
        }
        int unknown = (int) known.values().stream().filter(found -> !found).count();
        return new UnknownPersons(unknown, known.size(), allUnknown);
    }

    /** @param allUnknown the complex reads whose every parameter row names an unknown person: they never find anything */
    public record UnknownPersons(int unknown, int ids, List<QueryType> allUnknown) {
        /** Most ids unknown, or a read that can find nothing: not the odd missing person a data set may hold on purpose. */
        public boolean worthSaying() {
            return !allUnknown.isEmpty() || 2L * unknown > ids;
        }
    }

    /** The parameter rows of a complex read, in file order. */
    public List<Query> of(QueryType type) {
        List<Query> list = queries.get(type);
        if (list == null) {
            throw new IllegalArgumentException(type + " has no substitution parameters");
        }
        return list;
    }
}
