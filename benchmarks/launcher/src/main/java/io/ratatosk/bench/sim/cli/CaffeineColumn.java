package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.PolicySimulator;
import io.ratatosk.bench.sim.PeerColumn;
/** The Caffeine cache as the simulator's peer column {@code caffeine}; registered for the ServiceLoader. */
public final class CaffeineColumn implements PeerColumn {
    @Override
    public String name() {
        return "caffeine";
    }

    @Override
    public PolicySimulator simulator() {
        return new CaffeineSimulator();
    }
}
