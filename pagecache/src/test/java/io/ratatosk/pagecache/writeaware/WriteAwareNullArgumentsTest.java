package io.ratatosk.pagecache.writeaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.UsageModel;
import io.ratatosk.pagecache.InertPolicy;
import org.junit.jupiter.api.Test;

/**
 * Write-aware eviction refuses, when it is made, a policy, a frame table or a usage model that is null, naming it: a null
 * policy was taken without a word, and the wrapper failed later with a bare NullPointerException from inside an eviction
 * (a cursor's fault, or the background evictor) or from its name(); a null model failed the constructor bare, naming
 * nothing.
 */
class WriteAwareNullArgumentsTest {
    @Test
    void aNullPolicyFrameTableOrUsageModelIsRefusedNamingIt() {
        try (FrameTable frames = new FrameTable(4)) {
            InertPolicy policy = new InertPolicy("inert");
            NullPointerException noPolicy = assertThrows(NullPointerException.class,
                () -> new WriteAwareEviction(null, frames, 4, 1, 1));
            assertEquals("policy", noPolicy.getMessage());
            NullPointerException noPolicyForTier = assertThrows(NullPointerException.class,
                () -> new WriteAwareEviction(null, frames, 8, policy.usageModel()));
            assertEquals("policy", noPolicyForTier.getMessage());
            NullPointerException noFrames = assertThrows(NullPointerException.class,
                () -> new WriteAwareEviction(policy, null, 4, 1, 1));
            assertEquals("frames", noFrames.getMessage());
            NullPointerException noModel = assertThrows(NullPointerException.class,
                () -> new WriteAwareEviction(policy, frames, 8, (UsageModel) null));
            assertEquals("model", noModel.getMessage());
        }
    }
}
