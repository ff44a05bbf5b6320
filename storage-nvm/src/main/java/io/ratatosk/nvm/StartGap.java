package io.ratatosk.nvm;

/**
 * Start-gap wear levelling (Qureshi et al., MICRO 2009) over {@code n} logical slots stored in
 * {@code n + 1} physical slots. Two registers, start and gap, define the mapping
 * <pre>
 *   physical = (logical + start) mod n;  if (physical >= gap) physical += 1
 * </pre>
 * The gap is the one physical slot that holds nothing. A move copies the slot just below the gap
 * into the gap and lowers the gap by one; when the gap reaches 0 the next move copies slot {@code n}
 * to slot 0, puts the gap back at {@code n} and advances start. Each move relocates exactly one
 * logical slot, so every other logical slot maps to the same physical slot before and after it;
 * after {@code n + 1} moves every logical slot has shifted by one physical slot.
 *
 * <p>Both registers live in one volatile word, so a reader always sees a consistent pair. Only one
 * thread moves the gap at a time (the device serializes moves), and it holds the lock of the
 * logical slot it relocates while copying and committing.
 */
final class StartGap {
    private final int n;
    private volatile long registers;

    StartGap(int logicalSlots) {
        if (logicalSlots < 1) {
            throw new IllegalArgumentException("start-gap needs at least one slot: logicalSlots=" + logicalSlots);
        }
        this.n = logicalSlots;
        this.registers = pack(0, logicalSlots);
    }

    int physicalSlots() {
        return n + 1;
    }

    int toPhysical(int logical) {
        long r = registers;
        int pa = (int) (((long) logical + start(r)) % n);
        return pa >= gap(r) ? pa + 1 : pa;
    }

    /** The physical slot whose content the next move copies. */
    int moveSource() {
        int g = gap(registers);
        return g == 0 ? n : g - 1;
    }

    /** The physical slot the next move copies into (the gap itself). */
    int moveTarget() {
        int g = gap(registers);
        return g == 0 ? 0 : g;
    }

    /** The logical slot stored in {@code physical}, or -1 if it is the gap. */
    int toLogical(int physical) {
        long r = registers;
        int g = gap(r);
        if (physical == g) {
            return -1;
        }
        int pa = physical > g ? physical - 1 : physical;
        return (int) Math.floorMod((long) pa - start(r), (long) n);
    }

    /** Records that the move's copy is done: the moved logical slot now maps to the old gap. */
    void commitMove() {
        long r = registers;
        int s = start(r);
        int g = gap(r);
        registers = g == 0 ? pack((s + 1) % n, n) : pack(s, g - 1);
    }

    int start() {
        return start(registers);
    }

    int gap() {
        return gap(registers);
    }

    private static long pack(int start, int gap) {
        return ((long) start << 32) | (gap & 0xFFFF_FFFFL);
    }

    private static int start(long r) {
        return (int) (r >>> 32);
    }

    private static int gap(long r) {
        return (int) r;
    }
}
