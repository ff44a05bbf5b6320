package io.ratatosk.policies;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Helpers for tests that walk a grid of flag values, "unset" (null) being one value of each flag. */
public final class FlagGrid {
    private FlagGrid() {
    }

    /** Puts the flag only when the grid gives it a value; null leaves it unset. */
    public static void putIfSet(Map<String, String> flags, String name, String value) {
        if (value != null) {
            flags.put(name, value);
        }
    }

    /** The values given, then null for "flag not set". */
    public static List<String> withUnset(String... values) {
        List<String> all = new ArrayList<>(List.of(values));
        all.add(null);
        return all;
    }
}
