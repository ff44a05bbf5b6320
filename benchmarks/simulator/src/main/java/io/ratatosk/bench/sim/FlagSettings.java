package io.ratatosk.bench.sim;

import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The page cache flags of repeatable {@code --set FLAG=VALUE} options, each under its full name ({@code evictor.enabled}
 * is {@code pagecache.evictor.enabled}). A flag given twice with different values is refused: picocli's map options keep
 * the last value without a word, so {@code --set evictor.enabled=false ... --set pagecache.evictor.enabled=true} ran with
 * the evictor on, and a long command line hid which one counted.
 */
public final class FlagSettings {

    private FlagSettings() {
    }

    /**
     * Why {@code --set flag=value} is refused when {@code flag} is an eviction policy's own flag, else empty: it changed
     * the policies that read it, while every report, summary, chart and printed command named them as if at their
     * defaults (muninn with clock.max_usage=1 went from 85.3% to 81.5% hits on the LDBC sample at 5%, reported as
     * muninn). The policy's own form ({@code muninn:clock.max_usage=1}) names it as it ran.
     */
    public static Optional<String> policyFlagRefusal(String flag, String value) {
        if (PolicyRegistry.flags().byName(flag).isEmpty()) {
            return Optional.empty();
        }
        List<String> readers = PolicyRegistry.ENTRIES.stream()
            .filter(entry -> entry.flags().stream().anyMatch(f -> f.flag().name().equals(flag)))
            .map(PolicyEntry::name).toList();
        String key = flag.substring("pagecache.".length());
        return Optional.of("--set " + flag + " is a flag of the policies " + String.join(", ", readers) + ": give it with"
            + " each policy, as in --policies " + (readers.isEmpty() ? "POLICY" : readers.get(0)) + ":" + key + "=" + value
            + ", so that the report names the policy as it ran");
    }

    /** The full name of a flag as written after {@code --set}: {@code pagecache.} in front unless it is there. */
    public static String fullName(String flag) {
        String name = flag.strip();
        return name.startsWith("pagecache.") ? name : "pagecache." + name;
    }

    /**
     * The settings by full flag name, in the order given.
     *
     * @throws IllegalArgumentException naming every setting without an '=' or a flag name, and every flag set twice to
     *     different values (with both spellings as given)
     */
    public static Map<String, String> parse(String option, List<String> settings) {
        List<String> wrong = new ArrayList<>();
        Map<String, String> values = parse(option, settings, wrong);
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", wrong));
        }
        return values;
    }

    /**
     * The well-formed settings by full flag name, in the order given; a problem with any other is added to
     * {@code wrong}, for a caller that reports every problem of its command line at once.
     */
    public static Map<String, String> parse(String option, List<String> settings, List<String> wrong) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> spelling = new LinkedHashMap<>();
        for (String setting : settings) {
            int eq = setting.indexOf('=');
            if (eq < 0) {
                wrong.add(option + " " + setting + ": FLAG=VALUE expected, there is no '='");
            } else if (setting.substring(0, eq).isBlank()) {
                wrong.add(option + " " + setting + ": no flag named before the '='");
            } else {
                String flag = fullName(setting.substring(0, eq));
                String value = setting.substring(eq + 1);
                String earlier = values.putIfAbsent(flag, value);
                if (earlier == null) {
                    spelling.put(flag, setting);
                } else if (!earlier.equals(value)) {
                    wrong.add(option + " " + spelling.get(flag) + " and " + option + " " + setting + " both set " + flag
                        + ": give it once");
                }
            }
        }
        return values;
    }
}
