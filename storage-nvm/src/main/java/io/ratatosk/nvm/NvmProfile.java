package io.ratatosk.nvm;

import java.util.Locale;
import java.util.Optional;

/**
 * The device figures an emulated NVM region charges per page operation, selected with
 * {@code pagecache.nvm.profile}. Two kinds of profile exist:
 *
 * <ul>
 *   <li><b>per page</b> ({@code nvme}, {@code nvme-fast}): a block device; every page read or write
 *   costs one fixed latency whatever the page size. 50 us and 10 us are the emulated swap-device
 *   latencies of Fedorov (2016), chapter 5 (section 5.5.1, footnote 2; 5.5.3.1).</li>
 *   <li><b>per line</b> ({@code pcm}, {@code dram}): a memory device accessed in 64-byte lines, with
 *   the latencies of Fedorov (2016), table 2.2 (DRAM and PCM for a 1 GB chip, taken there from Dhiman et al.).
 *   A page of {@code P} bytes is {@code L = ceil(P / 64)} lines in {@code R = ceil(L / 16)} rows of
 *   {@value #ROW_BYTES} bytes (slots are row aligned). Then
 *   <pre>
 *   read  = R x firstRowRead + (L - R) x sameRowRead
 *   write = L x lineWrite
 *   </pre>
 *   For an 8 KiB page on {@code pcm}: read = 8 x 28 + 120 x 15 = 2 024 ns, write = 128 x 150 =
 *   19 200 ns.</li>
 * </ul>
 *
 * <p>Assumptions, not figures from the sources: table 2.2 gives no row size, so {@value #ROW_BYTES}
 * bytes (16 lines) is assumed. Table 2.2 also lists 15 ns for a same-row <i>write</i>; we charge the
 * 150 ns row-write figure for every line because evicting a page programs every one of its lines.
 * The dissertation gives no power for its NVMe devices (they were RAM disks with injected latency);
 * the {@code nvme} profiles assume 6 W active (read and write) and 2 W standby per device, the order
 * of magnitude of datacenter NVMe SSD datasheets, so their energy figures are illustrative only.
 * Table 2.2's activate and refresh powers are not modelled.
 */
public enum NvmProfile {
    /** Fedorov (2016), chapter 5: emulated NVMe swap device, 50 us per page operation. */
    NVME("nvme", Kind.PER_PAGE, 50_000, 50_000, 50_000, 6_000, 6_000, 2_000),
    /** Fedorov (2016), section 5.5.3.1: the faster device, 10 us per page operation. */
    NVME_FAST("nvme-fast", Kind.PER_PAGE, 10_000, 10_000, 10_000, 6_000, 6_000, 2_000),
    /** Fedorov (2016), table 2.2, PCM column: per 64-byte line. */
    PCM("pcm", Kind.PER_LINE, 28, 15, 150, 78, 773, 45),
    /** Fedorov (2016), table 2.2, DRAM column: per 64-byte line; a control profile. */
    DRAM("dram", Kind.PER_LINE, 15, 15, 22, 210, 195, 90);

    /** Bytes per line (a CPU cache line; the unit table 2.2 charges). */
    public static final int LINE_BYTES = 64;
    /** Assumed row (row buffer) size; table 2.2 does not state one. */
    public static final int ROW_BYTES = 1024;
    public static final int LINES_PER_ROW = ROW_BYTES / LINE_BYTES;

    /** How a profile charges an operation. */
    public enum Kind {
        /** One latency per page operation. */
        PER_PAGE,
        /** Latency per 64-byte line, with a row-buffer discount for further lines of a row. */
        PER_LINE
    }

    private final String flagValue;
    private final Kind kind;
    private final long firstReadNanos;
    private final long sameRowReadNanos;
    private final long writeNanos;
    private final long readPowerMilliwatts;
    private final long writePowerMilliwatts;
    private final long standbyPowerMilliwatts;

    NvmProfile(String flagValue, Kind kind, long firstReadNanos, long sameRowReadNanos, long writeNanos,
               long readPowerMilliwatts, long writePowerMilliwatts, long standbyPowerMilliwatts) {
        this.flagValue = flagValue;
        this.kind = kind;
        this.firstReadNanos = firstReadNanos;
        this.sameRowReadNanos = sameRowReadNanos;
        this.writeNanos = writeNanos;
        this.readPowerMilliwatts = readPowerMilliwatts;
        this.writePowerMilliwatts = writePowerMilliwatts;
        this.standbyPowerMilliwatts = standbyPowerMilliwatts;
    }

    /** The value of {@code pagecache.nvm.profile} that selects this profile. */
    public String flagValue() {
        return flagValue;
    }

    public Kind kind() {
        return kind;
    }

    /** Modeled latency of reading one page of {@code pageSize} bytes (see the class comment). */
    public long readPageNanos(int pageSize) {
        if (kind == Kind.PER_PAGE) {
            return firstReadNanos;
        }
        long lines = lines(pageSize);
        long rows = (lines + LINES_PER_ROW - 1) / LINES_PER_ROW;
        return rows * firstReadNanos + (lines - rows) * sameRowReadNanos;
    }

    /** Modeled latency of writing one page of {@code pageSize} bytes (see the class comment). */
    public long writePageNanos(int pageSize) {
        return kind == Kind.PER_PAGE ? writeNanos : lines(pageSize) * writeNanos;
    }

    private static long lines(int pageSize) {
        if (pageSize <= 0) {
            throw new IllegalArgumentException("page size must be positive: pageSize=" + pageSize);
        }
        return (pageSize + LINE_BYTES - 1L) / LINE_BYTES;
    }

    /** Power drawn while reading, per device. */
    public long readPowerMilliwatts() {
        return readPowerMilliwatts;
    }

    /** Power drawn while writing, per device. */
    public long writePowerMilliwatts() {
        return writePowerMilliwatts;
    }

    /** Power drawn all the time, per device, whether busy or not. */
    public long standbyPowerMilliwatts() {
        return standbyPowerMilliwatts;
    }

    /** The profile a flag value names (case-insensitive), if any. */
    public static Optional<NvmProfile> fromFlagValue(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (NvmProfile p : values()) {
            if (p.flagValue.equals(v)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** "nvme, nvme-fast, pcm, dram", for error messages and docs. */
    public static String accepted() {
        StringBuilder sb = new StringBuilder();
        for (NvmProfile p : values()) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(p.flagValue);
        }
        return sb.toString();
    }
}
