package io.ratatosk.bench.sim;

import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.Flags;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which configuration flags each policy reads, and how a short key in a policy override
 * ({@code global-clock:max_usage=4}) resolves to one of them: a key names the policy's flag that
 * equals it or ends with {@code "." + key}; none or several is an error listing the policy's flags.
 */
final class PolicyFlags {
    private static final List<String> EVERY_POLICY_NAMESPACE = List.of(
        "pagecache.clock.", "pagecache.clockpro.", "pagecache.history.", "pagecache.deferred_lru.");

    /**
     * What each policy reads: a full flag name, or a namespace ending in '.'. A policy missing here
     * (a newly added one) may take any policy flag.
     */
    private static final Map<String, List<String>> SCOPES = Map.of(
        "muninn", List.of("pagecache.clock.max_usage"),
        "global-clock", List.of("pagecache.clock."),
        "clock", List.of(),
        "random", List.of(),
        "clock-pro", List.of("pagecache.clockpro."),
        "clock-pro-plus", List.of("pagecache.clockpro."),
        "bitset-history", List.of("pagecache.history.", "pagecache.clock."),
        "bitset-history-exact", List.of("pagecache.history.", "pagecache.clock."),
        "deferred-lru", List.of("pagecache.deferred_lru."));

    private final Collection<String> universe;

    PolicyFlags(Collection<String> universe) {
        this.universe = new TreeSet<>(universe);
    }

    /** Over every flag of the page cache's registry. */
    static PolicyFlags standard() {
        return new PolicyFlags(Flags.ALL.stream().map(Flag::name).toList());
    }

    /** The flags {@code policy} reads, sorted. */
    List<String> flagsOf(String policy) {
        List<String> scope = SCOPES.getOrDefault(policy, EVERY_POLICY_NAMESPACE);
        List<String> flags = new ArrayList<>();
        for (String flag : universe) {
            for (String s : scope) {
                if (s.endsWith(".") ? flag.startsWith(s) : flag.equals(s)) {
                    flags.add(flag);
                    break;
                }
            }
        }
        return flags;
    }

    /**
     * Checks {@code value} against the registry's type and bounds for {@code flag}, if the registry
     * has it; a bad value fails naming the flag and what it accepts.
     */
    static void validate(String flag, String value) {
        Flags.byName(flag).ifPresent(f -> f.parse(value));
    }

    /** The full flag name {@code key} stands for in {@code policy}'s overrides. */
    String resolve(String policy, String key) {
        List<String> flags = flagsOf(policy);
        if (flags.isEmpty()) {
            throw new IllegalArgumentException("policy " + policy + " takes no flags, so '" + key + "' cannot be set");
        }
        List<String> matches = new ArrayList<>();
        for (String flag : flags) {
            if (flag.equals(key) || flag.endsWith("." + key)) {
                matches.add(flag);
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        String problem = matches.isEmpty() ? "unknown flag '" + key + "'" : "ambiguous flag '" + key + "' (" + matches + ")";
        throw new IllegalArgumentException(problem + " for policy " + policy + "; its flags: " + String.join(", ", flags));
    }
}
