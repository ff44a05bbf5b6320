package io.ratatosk.bench.sim;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The trace formats the simulator reads: how a file's keys are encoded. {@link #detect} picks one from the path;
 * {@code --format} forces one by {@link #id()}. How the file is compressed, if at all, is read from its first
 * bytes ({@link TraceCompression}), whatever the format.
 */
public enum TraceFormat {
    LIRS("lirs", "text, one integer key per line; lines holding * are skipped (lirs/*.trace.gz)",
        LirsTextDecoder::new),
    ARC("arc", "text, `start count ignored reqno` per line = keys start..start+count-1 (*.lis, *.lis.zst)",
        ArcRangeDecoder::new),
    CACHE2K("cache2k", "big-endian 32-bit keys back to back (cache2k/*.trace.xz)",
        file -> new BigEndianKeyDecoder(file, 4, false)),
    CLOUDPHYSICS("cloudphysics", "big-endian 32-bit keys back to back (cloudphysics/*.trace.xz)",
        file -> new BigEndianKeyDecoder(file, 4, false)),
    CORDA("corda", "big-endian 64-bit keys back to back (corda/*.gz)",
        file -> new BigEndianKeyDecoder(file, 8, false)),
    SCARAB("scarab", "big-endian 64-bit keys back to back (scarab/*.trace.xz, scarab*.trace.xz)",
        file -> new BigEndianKeyDecoder(file, 8, false)),
    PAGETRACE("pagetrace", "Ratatosk page trace, big-endian 64-bit PageKeys (*.pagetrace, *.pagetrace.gz)",
        file -> new BigEndianKeyDecoder(file, 8, true));

    /** Name endings that say only how a file is compressed; what is before them names the format. */
    private static final String[] COMPRESSION_SUFFIXES = {".gz", ".zst", ".xz", ".bz2"};
    /** The endings of the formats' own names, which a plain trace's name ends in (a compressed one's adds a suffix). */
    private static final String[] PLAIN_ENDINGS = {".trace", ".lis", ".pagetrace"};
    /** The formats a folder of their name places a {@code *.trace} in (ARC and page traces have names of their own). */
    private static final TraceFormat[] FOLDER_FORMATS = {LIRS, CACHE2K, CLOUDPHYSICS, CORDA, SCARAB};

    private final String id;
    private final String description;
    private final Function<Path, KeyDecoder> decoder;

    TraceFormat(String id, String description, Function<Path, KeyDecoder> decoder) {
        this.id = id;
        this.description = description;
        this.decoder = decoder;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    KeyDecoder decoderFor(Path file) {
        return decoder.apply(file);
    }

    /** The format named {@code id}; an unknown name is refused with the list of valid ones. */
    public static TraceFormat byId(String id) {
        for (TraceFormat f : values()) {
            if (f.id.equals(id.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown trace format '" + id + "'; valid formats: " + ids());
    }

    public static String ids() {
        return Arrays.stream(values()).map(TraceFormat::id).collect(Collectors.joining(", "));
    }

    /**
     * The format a path's name and folders imply, or empty if it is not a trace (a README, a licence). A
     * compression suffix ({@code .gz}, {@code .zst}, {@code .xz}, {@code .bz2}) is looked past: how the bytes are
     * compressed is read from the file itself ({@link TraceCompression}). Then: {@code *.pagetrace} is a page
     * trace and {@code *.lis} ARC; a {@code *.trace} is what its folder says ({@code lirs}, {@code cache2k},
     * {@code cloudphysics}, {@code scarab}, {@code corda}; a name starting {@code scarab} is scarab), else, as the
     * public traces are published, LIRS text if gzipped and cache2k if xz-compressed; any other gzipped file whose
     * name has no extension of its own ({@code trace_vaultservice.gz}, not {@code backup.tar.gz}) is corda. Anything
     * else is empty: {@code --format} names it.
     */
    public static Optional<TraceFormat> detect(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        String suffix = "";
        for (String s : COMPRESSION_SUFFIXES) {
            if (name.endsWith(s)) {
                suffix = s;
                name = name.substring(0, name.length() - s.length());
                break;
            }
        }
        if (name.endsWith(".pagetrace")) {
            return Optional.of(PAGETRACE);
        }
        if (name.endsWith(".lis")) {
            return Optional.of(ARC);
        }
        if (name.endsWith(".trace")) {
            // By the name too: the public scarab trace is published as scarab-recs.trace.xz, and laid out flat
            // beside the 32-bit ones it would otherwise be read as twice as many 32-bit keys, each half a key.
            if (name.startsWith("scarab")) {
                return Optional.of(SCARAB);
            }
            Optional<TraceFormat> byFolder = nearestFormatFolder(path);
            if (byFolder.isPresent()) {
                return byFolder;
            }
            if (suffix.equals(".gz")) {
                return Optional.of(LIRS);
            }
            return suffix.equals(".xz") ? Optional.of(CACHE2K) : Optional.empty();
        }
        // Corda's traces are published as trace_vaultservice.gz: a gzipped name with an extension of its own
        // (backup.tar.gz, results.csv.gz) is some other file, which was read as corda keys without a word
        boolean otherExtension = name.matches(".*\\.[a-z][a-z0-9]*");
        return suffix.equals(".gz") && !otherExtension ? Optional.of(CORDA) : Optional.empty();
    }

    /**
     * Whether {@code path} is named as a trace, {@code *.trace} plain or compressed, whether or not its folders or name
     * tell its format ({@link #detect}): {@code x/keys.trace} is a trace whose format only {@code --format} can say.
     */
    public static boolean namedAsTrace(Path path) {
        Path fileName = path.getFileName();
        if (fileName == null) {
            return false;
        }
        String name = fileName.toString().toLowerCase(Locale.ROOT);
        for (String s : COMPRESSION_SUFFIXES) {
            if (name.endsWith(s)) {
                name = name.substring(0, name.length() - s.length());
                break;
            }
        }
        return name.endsWith(".trace");
    }

    /**
     * Whether {@code path}'s name says the file is plain: it ends in a format's own ending ({@code .trace}, {@code .lis},
     * {@code .pagetrace}) with no compression suffix after it, as every published trace is named that is not
     * compressed.
     */
    static boolean namedPlain(Path path) {
        Path fileName = path.getFileName();
        String name = fileName == null ? "" : fileName.toString().toLowerCase(Locale.ROOT);
        return Arrays.stream(PLAIN_ENDINGS).anyMatch(name::endsWith);
    }

    /** The format named by the nearest folder above {@code path} that is named as a binary or LIRS format is. */
    private static Optional<TraceFormat> nearestFormatFolder(Path path) {
        for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            Path folder = p.getFileName();
            if (folder == null) {
                continue;
            }
            for (TraceFormat f : FOLDER_FORMATS) {
                if (folder.toString().equalsIgnoreCase(f.id)) {
                    return Optional.of(f);
                }
            }
        }
        return Optional.empty();
    }
}
