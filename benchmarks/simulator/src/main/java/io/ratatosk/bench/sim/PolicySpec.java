package io.ratatosk.bench.sim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One policy column as the user wrote it: a policy name and optional flag overrides,
 * {@code name[:key=value]...}, e.g. {@code global-clock:max_usage=7:fault_usage=2}. The whole text
 * is the column's name in every output.
 *
 * @param text  as written, the name shown in tables, JSON and charts
 * @param name  the policy name before the first ':'
 * @param flags resolved full flag names to values, in the order written
 */
public record PolicySpec(String text, String name, Map<String, String> flags) {
    public PolicySpec {
        flags = Collections.unmodifiableMap(new LinkedHashMap<>(flags));
    }

    /** Splits {@code text}; short keys are resolved by {@code flagNames}. Malformed text is refused. */
    static PolicySpec parse(String text, PolicyFlags flagNames) {
        String trimmed = text.strip();
        String[] parts = trimmed.split(":", -1);
        String name = parts[0];
        if (name.isEmpty()) {
            throw new IllegalArgumentException("policy '" + text + "' has no name before ':'");
        }
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0 || eq == parts[i].length() - 1) {
                throw new IllegalArgumentException("policy override '" + parts[i] + "' in '" + text
                    + "' is not key=value (e.g. global-clock:max_usage=4)");
            }
            String flag = flagNames.resolve(name, parts[i].substring(0, eq).strip());
            String value = parts[i].substring(eq + 1).strip();
            PolicyFlags.validate(flag, value);
            if (flags.put(flag, value) != null) {
                throw new IllegalArgumentException("policy '" + text + "' sets " + flag + " twice");
            }
        }
        return new PolicySpec(trimmed, name, flags);
    }
}
