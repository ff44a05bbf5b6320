package io.ratatosk.bench.ldbc.update;

import io.ratatosk.bench.ldbc.load.BoundedLineReader;
import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a data set's update streams ({@code update_streams/updateStream_i_j_{person,forum}.csv}: no
 * header, {@code |} separated, {@code scheduledStartTime|dependencyTime|type|fields...}) into the
 * order they execute in: merged by scheduledStartTime, and on equal times person files first, then
 * file order, then line order. Strict: every line is parsed before anything is applied, and a line
 * with an unknown type, the wrong number of columns, a bad number or more than
 * {@link BoundedLineReader#MAX_LINE_CHARS} characters stops the read with an error naming the file and the line.
 */
public final class UpdateStreams {
    private UpdateStreams() {
    }

    /** Every update of {@code source} in execution order; empty if it has no update streams. */
    public static List<Update> load(LdbcDataSource source) throws IOException {
        List<String> files = new ArrayList<>(source.updateStreams());
        // Person files first: on equal times their updates come before the forum files' ones.
        files.sort(Comparator.comparing((String f) -> !f.endsWith("_person.csv")).thenComparing(f -> f));
        List<Update> all = new ArrayList<>();
        for (String f : files) {
            all.addAll(read(source, f));
        }
        // A stable sort keeps files and lines in order on equal times.
        all.sort(Comparator.comparingLong(Update::scheduledStartTime));
        return Collections.unmodifiableList(all);
    }

    private static List<Update> read(LdbcDataSource source, String file) throws IOException {
        String name = source.describeUpdateStream(file);
        List<Update> updates = new ArrayList<>();
        try (BoundedLineReader in = new BoundedLineReader(source.openUpdateStream(file), name)) {
            String line;
            while ((line = in.readLine()) != null) {
                long lineNo = in.lineNumber();
                if (lineNo == 1 && line.startsWith("\uFEFF")) { // a UTF-8 byte order mark: no part of the time
                    line = line.substring(1);
                }
                if (line.isEmpty()) {
                    continue;
                }
                updates.add(parse(line, name, lineNo));
            }
        }
        return updates;
    }

    /** One line of an update stream. */
    public static Update parse(String line, String file, long lineNo) throws LdbcDataException {
        String[] cols = line.split("\\|", -1);
        if (cols.length < 3) {
            throw LdbcDataException.at(file, lineNo, "expected scheduledStartTime|dependencyTime|type|fields... but found "
                + cols.length + " column" + (cols.length == 1 ? "" : "s"));
        }
        long scheduled = number(cols[0], "scheduledStartTime", file, lineNo);
        number(cols[1], "dependencyTime", file, lineNo);
        long code = number(cols[2], "type", file, lineNo);
        UpdateType type = UpdateType.byCode((int) Math.max(0, Math.min(code, 99)));
        if (type == null) {
            throw LdbcDataException.at(file, lineNo, "type " + cols[2] + " is not an update type (1-8 for IU1-IU8)");
        }
        List<String> fields = type.fields();
        if (cols.length != 3 + fields.size()) {
            throw LdbcDataException.at(file, lineNo, "expected " + (3 + fields.size()) + " columns for " + type + " ("
                + "scheduledStartTime|dependencyTime|type|" + String.join("|", fields) + ") but found " + cols.length);
        }
        Map<String, Object> params = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            String text = cols[3 + i];
            String field = fields.get(i);
            params.put(field, switch (type.kind(i)) {
                case ID -> number(text, field, file, lineNo);
                case TEXT -> text;
                case TEXTS -> text.isEmpty() ? List.of() : List.of(text.split(";", -1));
                case IDS -> numbers(text, field, file, lineNo);
                case PAIRS -> pairs(text, field, file, lineNo);
            });
        }
        return new Update(type, scheduled, Collections.unmodifiableMap(params), file, lineNo);
    }

    private static List<Long> numbers(String text, String field, String file, long line) throws LdbcDataException {
        List<Long> list = new ArrayList<>();
        if (!text.isEmpty()) {
            for (String part : text.split(";", -1)) {
                list.add(number(part, field, file, line));
            }
        }
        return List.copyOf(list);
    }

    private static List<List<Long>> pairs(String text, String field, String file, long line) throws LdbcDataException {
        List<List<Long>> list = new ArrayList<>();
        if (!text.isEmpty()) {
            for (String part : text.split(";", -1)) {
                String[] pair = part.split(",", -1);
                if (pair.length != 2) {
                    throw LdbcDataException.at(file, line, field + ": " + LdbcDataException.quote(part) + " is not organisationId,year");
                }
                list.add(List.of(number(pair[0], field, file, line), number(pair[1], field, file, line)));
            }
        }
        return List.copyOf(list);
    }

    private static long number(String text, String field, String file, long line) throws LdbcDataException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw LdbcDataException.at(file, line, field + ": " + LdbcDataException.quote(text) + " is not a number");
        }
    }
}
