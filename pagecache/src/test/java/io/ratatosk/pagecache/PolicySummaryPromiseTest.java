package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyRegistry;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The policies' one-line summaries, which docs/configuration.md's generated policy table prints, against what the
 * cache does: only the policy pagecache.policy defaults to may call itself the default.
 */
class PolicySummaryPromiseTest {
    /**
     * Disabled: a defect of MuninnPolicy.ENTRY (cache-policies, not this area's). Its summary ends "the default.", from
     * before 2026-11-27, when the default became best-of (PolicyRegistry.DEFAULT_POLICY); so the generated table of
     * docs/configuration.md tells a user that muninn is what an unset pagecache.policy gets, beside the flag table's
     * default of best-of. Fix: drop "; the default" from the summary (or say "the default until 2026-11-27") and
     * regenerate docs/configuration.md (ConfigurationDocTest with -Dratatosk.writeDoc=true); then enable this test.
     */
    @Disabled("MuninnPolicy's summary still calls muninn the default; the default is best-of (see the Javadoc)")
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
