package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The complex reads' parameters from a data set's {@code substitution_parameters/interactive_N_param.txt}
 * files ({@code |} separated, a header of parameter names): values of the names
 * {@link QueryType#isNumeric} accepts are numbers, the rest strings.
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
        try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String header = in.readLine();
            if (header == null) {
                throw LdbcDataException.at(name, 1, "empty file; expected the header " + String.join("|", type.parameters()));
            }
            String[] names = header.strip().split("\\|", -1);
            if (!new java.util.HashSet<>(List.of(names)).equals(new java.util.HashSet<>(type.parameters()))) {
                throw LdbcDataException.at(name, 1, "header '" + header.strip() + "' does not name " + type
                    + "'s parameters " + String.join("|", type.parameters()));
            }
            String line;
            long lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
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
            throw LdbcDataException.at(file, line, parameter + ": '" + text + "' is not a number");
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
