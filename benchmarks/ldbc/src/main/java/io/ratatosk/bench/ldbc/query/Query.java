package io.ratatosk.bench.ldbc.query;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One query to execute: its type and parameters, by the names of {@link QueryType#parameters()}
 * in that order. Ids and dates are {@link Long}s, names {@link String}s.
 */
public record Query(QueryType type, Map<String, Object> params) {
    public Query {
        if (!params.keySet().equals(new java.util.HashSet<>(type.parameters()))) {
            throw new IllegalArgumentException(type + " takes " + type.parameters() + ", not " + params.keySet());
        }
        Map<String, Object> ordered = new LinkedHashMap<>();
        for (String name : type.parameters()) {
            ordered.put(name, params.get(name));
        }
        params = Collections.unmodifiableMap(ordered);
    }

    /** A query from its parameter values, in {@link QueryType#parameters()} order. */
    public static Query of(QueryType type, Object... values) {
        List<String> names = type.parameters();
        if (values.length != names.size()) {
            throw new IllegalArgumentException(type + " takes " + names + ": " + values.length + " values given");
        }
        Map<String, Object> params = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            params.put(names.get(i), values[i]);
        }
        return new Query(type, params);
    }

    public long longParam(String name) {
        Object v = params.get(name);
        if (!(v instanceof Long l)) {
            throw new IllegalArgumentException(type + " parameter " + name + " must be a number: " + v);
        }
        return l;
    }

    public String stringParam(String name) {
        Object v = params.get(name);
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException(type + " parameter " + name + " must be a string: " + v);
        }
        return s;
    }

    @Override
    public String toString() {
        return type + params.toString();
    }
}
