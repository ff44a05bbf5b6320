package io.ratatosk.it.lifecycle;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a run leaves out ({@code -Dratatosk.skip=LINKS,STALE_READ_ACROSS_CLOSE,...}), to see what else it
 * finds while one known bug still fails or crashes every run: operations by name ({@link Worker.Op}),
 * {@code LINKS} (symlinked spellings), {@code FAR_IDS} (far page ids), {@code FAULTS} (the failing disk),
 * {@code ERRORS} (the failing disk's Errors, keeping its IOExceptions), {@code SLOW_READS} (the slow disk),
 * {@code BORROW} (using a mapping without a reference: another thread's, or one's own after closing it), {@code NVM}
 * (the NVM tier). A normal run leaves out nothing.
 */
record Skips(Set<Worker.Op> ops, boolean links, boolean farIds, boolean faults, boolean errors, boolean slowReads, boolean borrow,
             boolean nvm) {
    static final String PROPERTY = "ratatosk.skip";

    static Skips parse(String text) {
        Set<Worker.Op> ops = EnumSet.noneOf(Worker.Op.class);
        boolean links = false;
        boolean farIds = false;
        boolean faults = false;
        boolean errors = false;
        boolean slowReads = false;
        boolean borrow = false;
        boolean nvm = false;
        for (String raw : text.split(",")) {
            String name = raw.strip().toUpperCase(Locale.ROOT);
            switch (name) {
                case "" -> { }
                case "LINKS" -> links = true;
                case "FAR_IDS" -> farIds = true;
                case "FAULTS" -> faults = true;
                case "ERRORS" -> errors = true;
                case "SLOW_READS" -> slowReads = true;
                case "BORROW" -> borrow = true;
                case "NVM" -> nvm = true;
                default -> {
                    try {
                        ops.add(Worker.Op.valueOf(name));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(PROPERTY + " takes LINKS, FAR_IDS, FAULTS, ERRORS, SLOW_READS, BORROW, NVM and operation"
                            + " names " + EnumSet.allOf(Worker.Op.class) + ": " + raw, e);
                    }
                }
            }
        }
        return new Skips(ops, links, farIds, faults, errors, slowReads, borrow, nvm);
    }

    boolean none() {
        return ops.isEmpty() && !links && !farIds && !faults && !errors && !slowReads && !borrow && !nvm;
    }

    @Override
    public String toString() {
        return "skipping " + ops + (links ? " LINKS" : "") + (farIds ? " FAR_IDS" : "") + (faults ? " FAULTS" : "")
            + (errors ? " ERRORS" : "") + (slowReads ? " SLOW_READS" : "") + (borrow ? " BORROW" : "")
            + (nvm ? " NVM" : "");
    }
}
