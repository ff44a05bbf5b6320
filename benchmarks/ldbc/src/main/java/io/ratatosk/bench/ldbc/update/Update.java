package io.ratatosk.bench.ldbc.update;

import java.util.List;
import java.util.Map;

/**
 * One insert of an update stream: its type, its fields by the names of {@link UpdateType#fields()}
 * in that order (numbers as {@link Long}, strings, lists as {@link List}s), when it is scheduled,
 * and where it came from (for error messages).
 */
public record Update(UpdateType type, long scheduledStartTime, Map<String, Object> params, String file, long line) {
    public long id(String field) {
        return (Long) params.get(field);
    }

    public String text(String field) {
        return (String) params.get(field);
    }

    @SuppressWarnings("unchecked")
    public <T> List<T> list(String field) {
        return (List<T>) params.get(field);
    }

    /** "file:line", for messages. */
    public String where() {
        return file + ":" + line;
    }

    @Override
    public String toString() {
        return type + params.toString() + " (" + where() + ")";
    }
}
