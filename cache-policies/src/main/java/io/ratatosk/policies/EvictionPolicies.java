package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.policies.clockpro.ClockProPlusPolicy;
import io.ratatosk.policies.clockpro.ClockProPolicy;
import io.ratatosk.policies.deferredlru.DeferredLruPolicy;
import java.util.List;
import java.util.Objects;

/** Creates a policy from its {@code pagecache.policy} name and the flags it reads. */
public final class EvictionPolicies {
    public static final String POLICY_FLAG = "pagecache.policy";

    /** Every name {@link #create} accepts; the one list of them. */
    public static final List<String> NAMES = List.of(MuninnPolicy.NAME, GlobalClockPolicy.NAME, ClockPolicy.NAME,
        RandomPolicy.NAME, ClockProPolicy.NAME, ClockProPlusPolicy.NAME, BitsetHistoryPolicy.NAME,
        ExactHistoryPolicy.NAME, DeferredLruPolicy.NAME);

    private EvictionPolicies() {
    }

    /**
     * @throws IllegalArgumentException for an unknown name (listing {@link #NAMES}) or a flag value
     *                                  the policy rejects (naming the flag and the value)
     */
    public static EvictionPolicy create(String policyName, FrameTable frames, PolicySettings settings) {
        Objects.requireNonNull(policyName, POLICY_FLAG);
        Objects.requireNonNull(settings, "settings");
        switch (policyName) {
            case MuninnPolicy.NAME:
                return new MuninnPolicy(frames,
                    settings.getInt(GlobalClockPolicy.MAX_USAGE_FLAG, MuninnPolicy.DEFAULT_MAX_USAGE));
            case GlobalClockPolicy.NAME:
                return new GlobalClockPolicy(frames,
                    settings.getInt(GlobalClockPolicy.MAX_USAGE_FLAG, GlobalClockPolicy.DEFAULT_MAX_USAGE),
                    settings.getInt(GlobalClockPolicy.FAULT_USAGE_FLAG, GlobalClockPolicy.DEFAULT_FAULT_USAGE),
                    settings.getInt(GlobalClockPolicy.EVICT_THRESHOLD_FLAG,
                        GlobalClockPolicy.DEFAULT_EVICT_THRESHOLD));
            case ClockPolicy.NAME:
                return new ClockPolicy(frames);
            case RandomPolicy.NAME:
                return new RandomPolicy(frames);
            case ClockProPolicy.NAME:
                return ClockProPolicy.create(frames, settings);
            case ClockProPlusPolicy.NAME:
                return ClockProPlusPolicy.create(frames, settings);
            case BitsetHistoryPolicy.NAME:
                return BitsetHistoryPolicy.create(frames, settings);
            case ExactHistoryPolicy.NAME:
                return ExactHistoryPolicy.create(frames, settings);
            case DeferredLruPolicy.NAME:
                return DeferredLruPolicy.create(frames, settings);
            default:
                throw new IllegalArgumentException(
                    POLICY_FLAG + "=" + policyName + " is not a policy; valid: " + String.join(", ", NAMES));
        }
    }
}
