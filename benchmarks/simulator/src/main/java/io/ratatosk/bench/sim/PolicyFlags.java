package io.ratatosk.bench.sim;

import io.ratatosk.core.config.Flag;
import io.ratatosk.policies.PolicyRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Which flags each policy reads, from the {@link PolicyRegistry}, and how a short key in a policy
 * override ({@code global-clock:max_usage=4}) resolves to one of them: a key names the policy's flag that
 * equals it or ends with {@code "." + key}; none or several is an error listing the policy's flags. A
 * policy the registry does not know (a test's reference policy) may take any policy flag.
 */
final class PolicyFlags {
    /** The flags a policy the registry does not know may take. */
    private final List<String> unregistered;

    PolicyFlags(Collection<String> unregistered) {
        this.unregistered = unregistered.stream().sorted().toList();
    }

    /** Over the policy registry; a policy it does not know may take any policy flag. */
    static PolicyFlags standard() {
        return new PolicyFlags(PolicyRegistry.flags().all().stream().map(Flag::name).toList());
    }

    /** The flags {@code policy} reads, sorted by name. */
    List<String> flagsOf(String policy) {
        return PolicyRegistry.entry(policy)
            .map(entry -> entry.flags().stream().map(read -> read.flag().name()).sorted().toList())
            .orElse(unregistered);
    }

    /** Checks {@code value} against the flag's own type and bounds, if it is a policy flag; a bad value fails naming the flag. */
    static void validate(String flag, String value) {
        PolicyRegistry.flags().byName(flag).ifPresent(f -> f.parse(value));
    }

    /** {@code value} as the flag writes it back ({@code 04} is {@code 4}); as given for a flag it does not know. */
    static String normalized(String flag, String value) {
        return PolicyRegistry.flags().byName(flag).map(f -> f.format(f.parse(value))).orElse(value);
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
