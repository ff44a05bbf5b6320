package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The policies' one-line summaries, which docs/configuration.md's generated policy table prints, against what the
 * cache does: only the policy pagecache.policy defaults to may call itself the default.
 */
class PolicySummaryPromiseTest {
    @Test
    void onlyTheDefaultPolicysSummaryCallsItTheDefault() {
        List<String> others = PolicyRegistry.ENTRIES.stream()
            .filter(e -> !e.name().equals(PolicyRegistry.DEFAULT_POLICY))
            .filter(e -> e.summary().toLowerCase(java.util.Locale.ROOT).contains("the default"))
            .map(PolicyEntry::name)
            .toList();
        assertEquals(List.of(), others, "policies whose summary calls them the default, though pagecache.policy defaults to "
            + PolicyRegistry.DEFAULT_POLICY);
    }
}
