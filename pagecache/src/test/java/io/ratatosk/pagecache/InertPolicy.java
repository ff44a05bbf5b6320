package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.Sweep;

/** A policy for tests of the engine around it: ignores every event and names no victim unless a subclass does. */
public class InertPolicy implements EvictionPolicy {
    private final String name;

    public InertPolicy(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void onHit(int frame) {
    }

    @Override
    public void onFault(int frame, long pageKey) {
    }

    @Override
    public void onEvicted(int frame, long pageKey) {
    }

    @Override
    public int nextVictim(Sweep sweep) {
        return NO_VICTIM;
    }
}
